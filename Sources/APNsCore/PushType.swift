/// The `apns-push-type` of a notification.
public struct PushType: Hashable, Sendable, CustomStringConvertible {
    /// The header value, e.g. `alert`.
    public let rawValue: String

    private init(_ rawValue: String) { self.rawValue = rawValue }

    public static let alert = PushType("alert")
    public static let background = PushType("background")
    public static let location = PushType("location")
    public static let voip = PushType("voip")
    public static let complication = PushType("complication")
    public static let fileprovider = PushType("fileprovider")
    public static let mdm = PushType("mdm")
    public static let liveactivity = PushType("liveactivity")
    public static let pushtotalk = PushType("pushtotalk")
    public static let widgets = PushType("widgets")
    public static let controls = PushType("controls")

    /// Every push type APNs accepts.
    public static let all: [PushType] = [
        .alert, .background, .location, .voip, .complication, .fileprovider, .mdm, .liveactivity,
        .pushtotalk, .widgets, .controls,
    ]

    /// The push type with this header value, or `nil` when APNs would answer InvalidPushType.
    public init?(rawValue: String) {
        guard let found = PushType.all.first(where: { $0.rawValue == rawValue }) else { return nil }
        self = found
    }

    /// The largest payload APNs accepts for this push type, in bytes.
    public var maximumPayloadSize: Int { self == .voip ? 5120 : 4096 }

    public var description: String { self.rawValue }
}

/// The front door a notification came through.
public struct Interface: Hashable, Sendable, CustomStringConvertible {
    public let rawValue: String

    private init(_ rawValue: String) { self.rawValue = rawValue }

    /// The HTTP/2 provider API.
    public static let http2 = Interface("http2")
    /// The legacy binary gateway.
    public static let binary = Interface("binary")
    /// Channel management and broadcast requests (`/1/apps/...`, `/4/broadcasts/apps/...`), on
    /// the provider port and the channels port.
    public static let broadcast = Interface("broadcast")
    /// Not a front door: a local notification an app scheduled on the emulated phone.
    public static let local = Interface("local")
    /// The Web Push service (RFC 8030) Safari and Home Screen web apps subscribe with.
    public static let webPush = Interface("webpush")

    public static let all: [Interface] = [.http2, .binary, .local, .broadcast, .webPush]

    public init?(rawValue: String) {
        guard let found = Interface.all.first(where: { $0.rawValue == rawValue }) else { return nil }
        self = found
    }

    public var description: String { self.rawValue }
}

/// What a foreground app lets the system still do when one of its notifications arrives
/// (UserNotifications' presentation options, which the app returns from `willPresent`). Empty by
/// default: the app is told, the user sees and hears nothing.
public struct ForegroundOptions: Hashable, Sendable, Codable {
    public var banner: Bool
    public var list: Bool
    public var sound: Bool
    public var badge: Bool

    public init(banner: Bool = false, list: Bool = false, sound: Bool = false, badge: Bool = false) {
        self.banner = banner
        self.list = list
        self.sound = sound
        self.badge = badge
    }

    public static let none = ForegroundOptions()
    static let names = ["banner", "list", "sound", "badge", "alert"]

    /// From option names: `banner`, `list`, `sound`, `badge` (`alert`, the older name, is `banner`
    /// and `list` together).
    public init(names: [String]) throws(DeviceModelError) {
        self.init()
        for name in names {
            switch name {
            case "banner": self.banner = true
            case "list": self.list = true
            case "sound": self.sound = true
            case "badge": self.badge = true
            case "alert": (self.banner, self.list) = (true, true)
            default:
                throw DeviceModelError(
                    .invalid, field: "foregroundOptions", "\(name) is not a presentation option; use banner, list, sound, badge")
            }
        }
    }

    public var names: [String] {
        [("banner", self.banner), ("list", self.list), ("sound", self.sound), ("badge", self.badge)].filter(\.1).map(\.0)
    }

    public init(from decoder: any Decoder) throws {
        let names = try decoder.singleValueContainer().decode([String].self)
        try self.init(names: names)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(self.names)
    }
}

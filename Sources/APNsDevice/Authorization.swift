/// What the user allows an app to do when a notification arrives (UserNotifications'
/// `UNAuthorizationStatus` and the alert, sound and badge settings).
public struct Authorization: Hashable, Sendable, Codable {
    public enum Status: String, Hashable, Sendable, Codable, CaseIterable {
        /// The app has not asked yet.
        case notDetermined
        case denied
        case authorized
    }

    public var status: Status
    public var alert: Bool
    public var sound: Bool
    public var badge: Bool

    public init(status: Status, alert: Bool = false, sound: Bool = false, badge: Bool = false) {
        self.status = status
        self.alert = alert
        self.sound = sound
        self.badge = badge
    }

    public static let notDetermined = Authorization(status: .notDetermined)

    /// Whether the user lets the app show alerts, play sounds, badge its icon.
    public var allowsAlert: Bool { self.status == .authorized && self.alert }
    public var allowsSound: Bool { self.status == .authorized && self.sound }
    public var allowsBadge: Bool { self.status == .authorized && self.badge }

    /// The interaction types an app may ask for.
    public struct Options: OptionSet, Hashable, Sendable {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }

        public static let alert = Options(rawValue: 1)
        public static let sound = Options(rawValue: 2)
        public static let badge = Options(rawValue: 4)

        /// Parses `alert,sound,badge` (any of them, in any order; empty for none).
        public init(list: String) throws(DeviceModelError) {
            var options: Options = []
            for name in list.split(separator: ",").map({ $0.trimmingSpaces }) where !name.isEmpty {
                switch name {
                case "alert": options.insert(.alert)
                case "sound": options.insert(.sound)
                case "badge": options.insert(.badge)
                default:
                    throw DeviceModelError(
                        .invalid, field: "options", "\(name) is not an interaction type; use alert, sound, badge")
                }
            }
            self = options
        }

        public var names: [String] {
            [(Options.alert, "alert"), (.sound, "sound"), (.badge, "badge")].filter { self.contains($0.0) }.map(\.1)
        }
    }

    /// The answer to an app's authorization request, and what was decided.
    public struct Answer: Hashable, Sendable {
        /// The authorization saved after the request.
        public var authorization: Authorization
        /// Whether everything asked for is allowed (the `granted` of `requestAuthorization`).
        public var granted: Bool
        /// Whether the user was asked (only the first time).
        public var prompted: Bool

        public init(authorization: Authorization, granted: Bool, prompted: Bool) {
            self.authorization = authorization
            self.granted = granted
            self.prompted = prompted
        }
    }

    /// An app asks for `options`. The first time, the emulated user answers (`userAllows`) and the
    /// answer is saved; later requests are not shown to the user and return what is saved, which
    /// the user may have changed in Settings since.
    public func request(_ options: Options, userAllows: Bool) -> Answer {
        guard self.status == .notDetermined else {
            let granted =
                self.status == .authorized
                && (!options.contains(.alert) || self.alert)
                && (!options.contains(.sound) || self.sound)
                && (!options.contains(.badge) || self.badge)
            return Answer(authorization: self, granted: granted, prompted: false)
        }
        let saved =
            userAllows
            ? Authorization(
                status: .authorized, alert: options.contains(.alert), sound: options.contains(.sound),
                badge: options.contains(.badge))
            : Authorization(status: .denied)
        return Answer(authorization: saved, granted: userAllows, prompted: true)
    }
}

extension Substring {
    var trimmingSpaces: String {
        String(self.drop(while: { $0 == " " }).reversed().drop(while: { $0 == " " }).reversed())
    }
}

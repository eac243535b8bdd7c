/// What the user allows an app to do when a notification arrives (UserNotifications'
/// `UNAuthorizationStatus` and the alert, sound and badge settings).
public struct Authorization: Hashable, Sendable, Codable {
    public enum Status: String, Hashable, Sendable, Codable, CaseIterable {
        /// The app has not asked yet.
        case notDetermined
        case denied
        case authorized
        /// Provisional (iOS 12): the app's notifications are delivered quietly, to Notification
        /// Center only, until the user keeps or turns them off.
        case provisional
        /// Ephemeral (iOS 14, App Clips): the App Clip may post notifications for eight hours after
        /// each launch; then, to iOS, it has not asked (``AppModel/ephemeralUntil``).
        case ephemeral
    }

    public var status: Status
    public var alert: Bool
    public var sound: Bool
    public var badge: Bool
    /// The user's Time Sensitive Notifications switch for the app (`timeSensitiveSetting`): on
    /// unless turned off; it matters only to an app with the capability.
    public var timeSensitive: Bool
    /// Whether the user allowed critical alerts (`criticalAlertSetting`; asked for with
    /// `.criticalAlert`, which needs Apple's entitlement).
    public var criticalAlert: Bool
    /// Whether the user put the app in the Scheduled Summary (`scheduledDeliverySetting`).
    public var scheduledDelivery: Bool
    /// The user's Direct Messages switch for the app (`directMessagesSetting`): on unless turned
    /// off, its communication notifications are delivered at once, not held for the Scheduled
    /// Summary; it matters only to an app with the communication-notifications capability.
    public var directMessages: Bool

    public init(
        status: Status, alert: Bool = false, sound: Bool = false, badge: Bool = false, timeSensitive: Bool = true,
        criticalAlert: Bool = false, scheduledDelivery: Bool = false, directMessages: Bool = true
    ) {
        self.status = status
        self.alert = alert
        self.sound = sound
        self.badge = badge
        self.timeSensitive = timeSensitive
        self.criticalAlert = criticalAlert
        self.scheduledDelivery = scheduledDelivery
        self.directMessages = directMessages
    }

    private enum CodingKeys: String, CodingKey {
        case status, alert, sound, badge, timeSensitive, criticalAlert, scheduledDelivery, directMessages
    }

    /// A record written before a setting existed keeps that setting's default.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            status: try container.decode(Status.self, forKey: .status),
            alert: try container.decode(Bool.self, forKey: .alert),
            sound: try container.decode(Bool.self, forKey: .sound),
            badge: try container.decode(Bool.self, forKey: .badge),
            timeSensitive: try container.decodeIfPresent(Bool.self, forKey: .timeSensitive) ?? true,
            criticalAlert: try container.decodeIfPresent(Bool.self, forKey: .criticalAlert) ?? false,
            scheduledDelivery: try container.decodeIfPresent(Bool.self, forKey: .scheduledDelivery) ?? false,
            directMessages: try container.decodeIfPresent(Bool.self, forKey: .directMessages) ?? true)
    }

    public static let notDetermined = Authorization(status: .notDetermined)

    /// Whether the user lets the app show alerts, play sounds, badge its icon.
    public var allowsAlert: Bool { (self.status == .authorized || self.status == .ephemeral) && self.alert }
    public var allowsSound: Bool { (self.status == .authorized || self.status == .ephemeral) && self.sound }
    public var allowsBadge: Bool { (self.status == .authorized || self.status == .ephemeral) && self.badge }

    /// The interaction types an app may ask for.
    public struct Options: OptionSet, Hashable, Sendable {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }

        public static let alert = Options(rawValue: 1)
        public static let sound = Options(rawValue: 2)
        public static let badge = Options(rawValue: 4)
        /// `.criticalAlert` (its bit as in `UNAuthorizationOptions`).
        public static let criticalAlert = Options(rawValue: 16)
        /// `.provisional`: granted without asking; delivered quietly (its bit as in `UNAuthorizationOptions`).
        public static let provisional = Options(rawValue: 64)

        /// Parses `alert,sound,badge` (any of them, in any order; empty for none).
        public init(list: String) throws(DeviceModelError) {
            var options: Options = []
            for name in list.split(separator: ",").map({ $0.trimmingSpaces }) where !name.isEmpty {
                switch name {
                case "alert": options.insert(.alert)
                case "sound": options.insert(.sound)
                case "badge": options.insert(.badge)
                case "criticalAlert": options.insert(.criticalAlert)
                case "provisional": options.insert(.provisional)
                default:
                    throw DeviceModelError(
                        .invalid, field: "options",
                        "\(name) is not an authorization option; use alert, sound, badge, criticalAlert, provisional")
                }
            }
            self = options
        }

        public var names: [String] {
            [
                (Options.alert, "alert"), (.sound, "sound"), (.badge, "badge"), (.criticalAlert, "criticalAlert"),
                (.provisional, "provisional"),
            ]
            .filter { self.contains($0.0) }.map(\.1)
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
    ///
    /// With `.provisional` an app not yet decided is authorized provisionally without asking (its
    /// notifications go quietly to Notification Center); an app authorized provisionally that
    /// asks without it is asked for real (Apple, "Asking permission to use notifications").
    /// `.criticalAlert` is allowed when the user allows the request.
    public func request(_ options: Options, userAllows: Bool) -> Answer {
        let undecided = self.status == .notDetermined || (self.status == .provisional && !options.contains(.provisional))
        guard undecided else {
            let granted =
                (self.status == .authorized || self.status == .provisional)
                && (!options.contains(.alert) || self.alert)
                && (!options.contains(.sound) || self.sound)
                && (!options.contains(.badge) || self.badge)
                && (!options.contains(.criticalAlert) || self.criticalAlert)
            return Answer(authorization: self, granted: granted, prompted: false)
        }
        var saved = Authorization(
            status: .authorized, alert: options.contains(.alert), sound: options.contains(.sound),
            badge: options.contains(.badge), timeSensitive: self.timeSensitive, criticalAlert: options.contains(.criticalAlert),
            scheduledDelivery: self.scheduledDelivery, directMessages: self.directMessages)
        if options.contains(.provisional) {
            saved.status = .provisional
            return Answer(authorization: saved, granted: true, prompted: false)
        }
        guard userAllows else { return Answer(authorization: Authorization(status: .denied), granted: false, prompted: true) }
        return Answer(authorization: saved, granted: true, prompted: true)
    }
}

extension Substring {
    var trimmingSpaces: String {
        String(self.drop(while: { $0 == " " }).reversed().drop(while: { $0 == " " }).reversed())
    }
}

import APNsCore

/// One app on the emulated phone, as iOS keeps it for notifications: what the user allows, what
/// the app registered, where it is, the phone's language, and what Notification Center shows.
public struct AppModel: Hashable, Sendable, Codable {
    public var authorization = Authorization.notDetermined
    public var categories: [NotificationCategory] = []
    public var appState = AppState.notRunning
    public var foregroundOptions = ForegroundOptions.none
    public var alertStyle = AlertStyle.banner
    /// The phone's language (a BCP 47 identifier such as `en` or `fr`).
    public var language = "en"
    /// The phone's time zone (an IANA name): floating calendar triggers follow it.
    public var timeZone = "UTC"
    /// The app's localised strings: language, then key, then format (`%@`, `%1$@`).
    public var strings: [String: [String: String]] = [:]
    /// The sounds bundled with the app: file name, then duration in seconds.
    public var sounds: [String: Double] = [:]
    /// The number on the app's icon (0: none).
    public var badge = 0
    /// Notification Center: what was shown and not yet acted on, oldest first.
    public var delivered: [DeliveredNotification] = []
    /// Local notifications the app scheduled that have not fired (repeating ones stay).
    public var pending: [LocalNotificationRequest] = []
    /// Whether the user lets the app use the device's location (Core Location's answer): region
    /// triggers fire only when authorized.
    public var locationAuthorization = LocationAuthorization.notDetermined
    /// Where the device is (nil until it is first placed).
    public var location: Coordinate?
    /// The `ActivityAttributes` types the app declares, by the name `attributes-type` uses.
    public var activityTypes: [String: ActivityType] = [:]
    /// The user's switch for the app's Live Activities (Settings, on by default).
    public var liveActivitiesEnabled = true
    public var frequentUpdates = FrequentUpdates()
    /// The phone's iOS version: what exists (push-to-start from 17.2, `input-push-token` from 18).
    public var iosVersion = "18.0"
    /// The surfaces paired with the device that show its Live Activities (``ActivitySurface``).
    public var pairedSurfaces: [ActivitySurface] = []
    /// What the device is (iPhone by default); `iosVersion` is that platform's version.
    public var platform = DevicePlatform.iOS {
        didSet {
            for budget in [\AppModel.widgetPushes, \AppModel.controlPushes] where self[keyPath: budget].chosen != true {
                self[keyPath: budget].perDay = self.platform.defaultReloadsPerDay
            }
        }
    }
    /// The app's push-to-start token (hex), once it has one.
    public var pushToStartToken: String?
    /// The app's Live Activities, running and past (the latest ``activitiesLimit``).
    public var activities: [LiveActivity] = []
    /// When the pushes that draw from the budgets arrived, within the last hour.
    public var activityBudget = ActivityBudget()
    /// The pushed reloads of the app's widgets and controls (push types widgets and controls).
    public var widgetPushes = ReloadBudget()
    public var controlPushes = ReloadBudget()
    /// When this app is a web page or Home Screen web app subscribed to Web Push: its
    /// subscription (nil for every other app).
    public var webApp: WebApp?
    /// The capabilities the app is signed with that change its notifications' presentation.
    public var entitlements: Set<AppEntitlement> = []
    /// The Focus the device is in, if any (device-wide: every app of the device holds it).
    public var focus: Focus?
    /// Whether background pushes wake the app: the user's switches and the phone's budget.
    public var backgroundPushes = BackgroundPushes()
    /// Whether the app reports a call for each VoIP push, and what its failures did.
    public var voipPushes = VoIPPushes()
    /// The app's notification service extension, when it has one (``ServiceExtension``).
    public var serviceExtension: ServiceExtension?
    /// While the authorization is ephemeral (an App Clip): when it ends, on the emulator's clock
    /// (eight hours after the App Clip's last launch, ``AppModel/ephemeralHours``).
    public var ephemeralUntil: Int64?
    /// The phone's Scheduled Summary times (`HH:MM`, in its time zone); device-wide, like `timeZone`.
    public var summaryTimes = ScheduledSummary.defaultTimes
    /// The environment of the app build that registered (a debug build from Xcode: development;
    /// TestFlight and the App Store: production); nil for the emulator's default. The tokens
    /// ActivityKit issues the app belong to it too.
    public var environment: APNsEnvironment?

    public init() {}

    /// Every field may be missing (a record written by an earlier version): it keeps its default.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        func field<T: Decodable>(_ key: CodingKeys, _ fallback: T) throws -> T {
            try container.decodeIfPresent(T.self, forKey: key) ?? fallback
        }
        self.authorization = try field(.authorization, Authorization.notDetermined)
        self.categories = try field(.categories, [])
        self.appState = try field(.appState, .notRunning)
        self.foregroundOptions = try field(.foregroundOptions, .none)
        self.alertStyle = try field(.alertStyle, .banner)
        self.language = try field(.language, "en")
        self.timeZone = try field(.timeZone, "UTC")
        self.strings = try field(.strings, [:])
        self.sounds = try field(.sounds, [:])
        self.badge = try field(.badge, 0)
        self.delivered = try field(.delivered, [])
        self.pending = try field(.pending, [])
        self.locationAuthorization = try field(.locationAuthorization, .notDetermined)
        self.location = try container.decodeIfPresent(Coordinate.self, forKey: .location)
        self.activityTypes = try field(.activityTypes, [:])
        self.liveActivitiesEnabled = try field(.liveActivitiesEnabled, true)
        self.frequentUpdates = try field(.frequentUpdates, FrequentUpdates())
        self.iosVersion = try field(.iosVersion, "18.0")
        self.platform = try field(.platform, .iOS)
        self.pairedSurfaces = try field(.pairedSurfaces, [])
        self.pushToStartToken = try container.decodeIfPresent(String.self, forKey: .pushToStartToken)
        self.activities = try field(.activities, [])
        self.activityBudget = try field(.activityBudget, ActivityBudget())
        self.widgetPushes = try field(.widgetPushes, ReloadBudget())
        self.controlPushes = try field(.controlPushes, ReloadBudget())
        self.webApp = try container.decodeIfPresent(WebApp.self, forKey: .webApp)
        self.entitlements = try field(.entitlements, [])
        self.focus = try container.decodeIfPresent(Focus.self, forKey: .focus)
        self.backgroundPushes = try field(.backgroundPushes, BackgroundPushes())
        self.voipPushes = try field(.voipPushes, VoIPPushes())
        self.serviceExtension = try container.decodeIfPresent(ServiceExtension.self, forKey: .serviceExtension)
        self.ephemeralUntil = try container.decodeIfPresent(Int64.self, forKey: .ephemeralUntil)
        self.summaryTimes = try field(.summaryTimes, ScheduledSummary.defaultTimes)
        self.environment = try container.decodeIfPresent(APNsEnvironment.self, forKey: .environment)
    }

    enum CodingKeys: String, CodingKey {
        case authorization, categories, appState, foregroundOptions, alertStyle, language, timeZone, strings, sounds, badge,
            delivered, pending, locationAuthorization, location
        case activityTypes, liveActivitiesEnabled, frequentUpdates, iosVersion, platform, pairedSurfaces, pushToStartToken,
            activities,
            activityBudget
        case widgetPushes, controlPushes, webApp, entitlements, focus, backgroundPushes, voipPushes, serviceExtension,
            ephemeralUntil, summaryTimes, environment
    }

    /// The most notifications kept in Notification Center per app; older ones drop off.
    public static let deliveredLimit = 100

    /// The category registered under `identifier`.
    public func category(_ identifier: String?) -> NotificationCategory? {
        guard let identifier else { return nil }
        return self.categories.first { $0.identifier == identifier }
    }

    /// Refuses categories the app could not register: two with one identifier, or one that is
    /// itself invalid.
    public static func validate(categories: [NotificationCategory]) throws(DeviceModelError) {
        var seen: Set<String> = []
        for (index, category) in categories.enumerated() {
            try category.validate(at: "categories[\(index)]")
            guard seen.insert(category.identifier).inserted else {
                throw DeviceModelError(
                    .invalid, field: "categories[\(index)].identifier",
                    "two categories are named \(category.identifier); each must be unique")
            }
        }
    }

    /// Adds a shown notification to Notification Center (replacing one with the same id).
    public mutating func addDelivered(_ notification: DeliveredNotification) {
        self.delivered.removeAll { $0.uniqueID == notification.uniqueID }
        self.delivered.append(notification)
        if self.delivered.count > Self.deliveredLimit { self.delivered.removeFirst(self.delivered.count - Self.deliveredLimit) }
    }

    /// Removes notifications from Notification Center: those named, or all; returns how many.
    @discardableResult
    public mutating func removeDelivered(_ uniqueID: String?) -> Int {
        let before = self.delivered.count
        if let uniqueID {
            self.delivered.removeAll { $0.uniqueID == uniqueID }
        } else {
            self.delivered.removeAll()
        }
        return before - self.delivered.count
    }
}

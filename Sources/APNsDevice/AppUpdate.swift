import Foundation

/// A change to an app's settings: what a user changes in Settings, what an app registers, or what
/// a test arranges. Every field is optional; those given replace the app's value whole.
public struct AppUpdate: Hashable, Sendable, Decodable {
    public var authorization: Authorization?
    public var categories: [NotificationCategory]?
    public var appState: AppState?
    public var foregroundOptions: ForegroundOptions?
    public var alertStyle: AlertStyle?
    public var language: String?
    public var timeZone: String?
    public var locationAuthorization: LocationAuthorization?
    public var strings: [String: [String: String]]?
    public var sounds: [String: Double]?
    public var badge: Int?
    /// Live Activities: the types the app declares, the user's switches, the phone's iOS version.
    public var activityTypes: [String: ActivityType]?
    public var liveActivitiesEnabled: Bool?
    public var frequentUpdates: FrequentUpdates?
    public var iosVersion: String?
    /// The device's platform (``DevicePlatform``); device-wide, like `iosVersion`.
    public var platform: DevicePlatform?
    /// The surfaces paired with the device (``ActivitySurface``); device-wide.
    public var pairedSurfaces: [ActivitySurface]?
    /// The pushed reloads allowed per 24 hours for the app's widgets and controls.
    public var widgetPushBudget: Int?
    public var controlPushBudget: Int?
    /// Background pushes: the user's Background App Refresh switch, whether the user force-quit the
    /// app (cleared when it comes to the foreground), and the wakes allowed per hour.
    public var backgroundAppRefresh: Bool?
    public var forceQuit: Bool?
    public var backgroundPushBudget: Int?
    /// Whether the app reports a call to CallKit for each VoIP push (the app's own behaviour).
    public var reportsCalls: Bool?
    /// The capabilities the app is signed with (``AppEntitlement``), replacing the app's.
    public var entitlements: Set<AppEntitlement>?
    /// The app's notification service extension: `.some(nil)` removes it (`"serviceExtension": null`).
    public var serviceExtension: ServiceExtension??
    /// The phone's Scheduled Summary times (`HH:MM`); device-wide.
    public var summaryTimes: [String]?

    public init(
        authorization: Authorization? = nil,
        categories: [NotificationCategory]? = nil,
        appState: AppState? = nil,
        foregroundOptions: ForegroundOptions? = nil,
        alertStyle: AlertStyle? = nil,
        language: String? = nil,
        strings: [String: [String: String]]? = nil,
        sounds: [String: Double]? = nil,
        badge: Int? = nil
    ) {
        self.authorization = authorization
        self.categories = categories
        self.appState = appState
        self.foregroundOptions = foregroundOptions
        self.alertStyle = alertStyle
        self.language = language
        self.strings = strings
        self.sounds = sounds
        self.badge = badge
    }

    public static let example =
        #"{"authorization": {"status": "authorized", "alert": true, "sound": true, "badge": true}, "appState": "background"}"#

    enum CodingKeys: String, CodingKey, CaseIterable {
        case authorization, categories, appState, foregroundOptions, alertStyle, language, timeZone, locationAuthorization,
            strings, sounds, badge
        case activityTypes, liveActivitiesEnabled, frequentUpdates, iosVersion, platform, pairedSurfaces
        case widgetPushBudget, controlPushBudget, entitlements, backgroundAppRefresh, forceQuit, backgroundPushBudget,
            reportsCalls, serviceExtension, summaryTimes
    }

    public init(from decoder: any Decoder) throws {
        try decoder.refuseUnknown(CodingKeys.self, in: "an app")
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.authorization = try container.decodeIfPresent(AuthorizationDocument.self, forKey: .authorization)?.authorization
        self.categories = try container.decodeIfPresent([NotificationCategory].self, forKey: .categories)
        self.appState = try Self.decodeName(AppState.self, container, .appState)
        self.foregroundOptions = try container.decodeIfPresent(ForegroundOptions.self, forKey: .foregroundOptions)
        self.alertStyle = try Self.decodeName(AlertStyle.self, container, .alertStyle)
        self.language = try container.decodeIfPresent(String.self, forKey: .language)
        self.timeZone = try container.decodeIfPresent(String.self, forKey: .timeZone)
        self.locationAuthorization = try Self.decodeName(LocationAuthorization.self, container, .locationAuthorization)
        self.strings = try container.decodeIfPresent([String: [String: String]].self, forKey: .strings)
        self.sounds = try container.decodeIfPresent([String: Double].self, forKey: .sounds)
        self.badge = try container.decodeIfPresent(Int.self, forKey: .badge)
        self.activityTypes = try container.decodeIfPresent([String: ActivityType].self, forKey: .activityTypes)
        self.liveActivitiesEnabled = try container.decodeIfPresent(Bool.self, forKey: .liveActivitiesEnabled)
        self.frequentUpdates = try container.decodeIfPresent(FrequentUpdates.self, forKey: .frequentUpdates)
        self.iosVersion = try container.decodeIfPresent(String.self, forKey: .iosVersion)
        self.platform = try Self.decodeName(DevicePlatform.self, container, .platform)
        if let names = try container.decodeIfPresent([String].self, forKey: .pairedSurfaces) {
            self.pairedSurfaces = try names.map { name in
                guard let surface = ActivitySurface(rawValue: name) else {
                    let known = ActivitySurface.allCases.map(\.rawValue).joined(separator: ", ")
                    throw DeviceModelError(.invalid, field: "pairedSurfaces", "pairedSurfaces \(name) is not one of \(known)")
                }
                return surface
            }
        }
        if let names = try container.decodeIfPresent([String].self, forKey: .entitlements) {
            self.entitlements = Set(
                try names.map { name in
                    guard let entitlement = AppEntitlement(rawValue: name) else {
                        let known = AppEntitlement.allCases.map(\.rawValue).joined(separator: ", ")
                        throw DeviceModelError(.invalid, field: "entitlements", "entitlements \(name) is not one of \(known)")
                    }
                    return entitlement
                })
        }
        self.backgroundAppRefresh = try container.decodeIfPresent(Bool.self, forKey: .backgroundAppRefresh)
        self.forceQuit = try container.decodeIfPresent(Bool.self, forKey: .forceQuit)
        self.reportsCalls = try container.decodeIfPresent(Bool.self, forKey: .reportsCalls)
        self.serviceExtension = try Self.decodeServiceExtension(container)
        self.summaryTimes = try container.decodeIfPresent([String].self, forKey: .summaryTimes)
        self.backgroundPushBudget = try container.decodeIfPresent(Int.self, forKey: .backgroundPushBudget)
        if let budget = self.backgroundPushBudget, !(0...3_600).contains(budget) {
            throw DeviceModelError(
                .invalid, field: "backgroundPushBudget",
                "backgroundPushBudget is the background pushes that may wake the app per hour, 0 to 3600")
        }
        self.widgetPushBudget = try container.decodeIfPresent(Int.self, forKey: .widgetPushBudget)
        self.controlPushBudget = try container.decodeIfPresent(Int.self, forKey: .controlPushBudget)
        for (budget, name) in [(self.widgetPushBudget, "widgetPushBudget"), (self.controlPushBudget, "controlPushBudget")] {
            if let budget, !(0...10_000).contains(budget) {
                throw DeviceModelError(.invalid, field: name, "\(name) is the pushed reloads allowed per 24 hours, 0 to 10000")
            }
        }
        try self.validate()
    }

    /// The service extension given: absent (nil), removed (`null`, `.some(nil)`) or declared.
    private static func decodeServiceExtension(_ container: KeyedDecodingContainer<CodingKeys>) throws -> ServiceExtension?? {
        guard container.contains(.serviceExtension) else { return nil }
        if try container.decodeNil(forKey: .serviceExtension) { return .some(nil) }
        return .some(try container.decode(ServiceExtension.self, forKey: .serviceExtension))
    }

    /// An enumeration's name, refused with the names it may be.
    private static func decodeName<T: RawRepresentable & CaseIterable>(
        _ type: T.Type, _ container: KeyedDecodingContainer<CodingKeys>, _ key: CodingKeys
    ) throws -> T? where T.RawValue == String {
        guard let name = try container.decodeIfPresent(String.self, forKey: key) else { return nil }
        guard let value = T(rawValue: name) else {
            let names = T.allCases.map(\.rawValue).joined(separator: ", ")
            throw DeviceModelError(.invalid, field: key.stringValue, "\(key.stringValue) \(name) is not one of \(names)")
        }
        return value
    }

    /// Refuses values no phone could have.
    public func validate() throws(DeviceModelError) {
        if let categories { try AppModel.validate(categories: categories) }
        if let summaryTimes { try ScheduledSummary.validate(summaryTimes) }
        if let language, language.isEmpty || language.utf8.count > 35 {
            throw DeviceModelError(.invalid, field: "language", "language must be a BCP 47 identifier such as en or fr-CA")
        }
        if let timeZone, TimeZone(identifier: timeZone) == nil {
            throw DeviceModelError(
                .invalid, field: "timeZone", "\(timeZone) is not a time zone (use an IANA name such as Europe/Paris)")
        }
        if let badge, !(0...Int(Int32.max)).contains(badge) {
            throw DeviceModelError(.invalid, field: "badge", "badge must be 0 to \(Int32.max)")
        }
        for (name, seconds) in self.sounds ?? [:] {
            guard !name.isEmpty else { throw DeviceModelError(.invalid, field: "sounds", "a sound needs a file name") }
            guard seconds.isFinite, seconds >= 0 else {
                throw DeviceModelError(
                    .invalid, field: "sounds.\(name)", "the duration of \(name) must be a number of seconds, 0 or more")
            }
        }
        if let iosVersion, IOSVersion(iosVersion) == nil {
            throw DeviceModelError(
                .invalid, field: "iosVersion", "iosVersion \(iosVersion) is not a version such as 17.2 or 18.0")
        }
        for name in (self.activityTypes ?? [:]).keys where name.isEmpty || name.utf8.count > ActivityType.longestName {
            throw DeviceModelError(
                .invalid, field: "activityTypes", "an activity type needs a name of 1 to \(ActivityType.longestName) bytes")
        }
    }

    /// The app after this change.
    public func applied(to app: AppModel) -> AppModel {
        var app = app
        if let authorization { app.authorization = authorization }
        if let categories { app.categories = categories }
        if let appState { app.appState = appState }
        if let foregroundOptions { app.foregroundOptions = foregroundOptions }
        if let alertStyle { app.alertStyle = alertStyle }
        if let language { app.language = language }
        if let timeZone { app.timeZone = timeZone }
        if let locationAuthorization { app.locationAuthorization = locationAuthorization }
        if let strings { app.strings = strings }
        if let sounds { app.sounds = sounds }
        if let badge { app.badge = badge }
        if let activityTypes { app.activityTypes = activityTypes }
        if let liveActivitiesEnabled { app.liveActivitiesEnabled = liveActivitiesEnabled }
        if let frequentUpdates { app.frequentUpdates = frequentUpdates }
        if let iosVersion { app.iosVersion = iosVersion }
        if let platform { app.platform = platform }
        if let pairedSurfaces { app.pairedSurfaces = pairedSurfaces }
        if let widgetPushBudget { (app.widgetPushes.perDay, app.widgetPushes.chosen) = (widgetPushBudget, true) }
        if let controlPushBudget { (app.controlPushes.perDay, app.controlPushes.chosen) = (controlPushBudget, true) }
        if let entitlements { app.entitlements = entitlements }
        if let backgroundAppRefresh { app.backgroundPushes.refresh = backgroundAppRefresh }
        if let forceQuit { app.backgroundPushes.forceQuit = forceQuit }
        if let backgroundPushBudget { app.backgroundPushes.perHour = backgroundPushBudget }
        if let reportsCalls { app.voipPushes.reportsCalls = reportsCalls }
        if let serviceExtension { app.serviceExtension = serviceExtension }
        if let summaryTimes { app.summaryTimes = summaryTimes }
        // Launched: an app the user force-quit takes background pushes again, VoIP pushes too.
        if appState == .foreground && forceQuit != true { app.backgroundPushes.forceQuit = false }
        if appState == .foreground { app.voipPushes.launched() }
        return app
    }

    /// Whether the change touches only what an app may change itself (not what the user allows).
    public var isAppsOwn: Bool {
        self.authorization == nil && self.alertStyle == nil && self.locationAuthorization == nil
            && self.liveActivitiesEnabled == nil && self.frequentUpdates == nil && self.iosVersion == nil && self.platform == nil
            && self.pairedSurfaces == nil
            && self.widgetPushBudget == nil && self.controlPushBudget == nil
            && self.backgroundAppRefresh == nil && self.forceQuit == nil && self.backgroundPushBudget == nil
    }
}

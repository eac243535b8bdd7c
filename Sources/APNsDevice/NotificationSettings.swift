/// What `UNUserNotificationCenter.notificationSettings()` tells the app: its authorization status
/// and each setting as `enabled`, `disabled` or `notSupported` (`UNNotificationSetting`). The
/// Time Sensitive, Critical Alerts and Direct Messages settings exist only for an app with the
/// matching capability: without it they are `notSupported`. Sources: Apple, UNNotificationSettings
/// (`alertSetting`, `soundSetting`, `badgeSetting`, `timeSensitiveSetting`,
/// `criticalAlertSetting`, `scheduledDeliverySetting`, `directMessagesSetting`) and
/// UNNotificationSetting; JPush, "iOS 通知权限类别说明" (the Time Sensitive and Direct Messages
/// switches, shown for apps with the Time Sensitive and Communication Notifications capabilities,
/// deliver those notifications at once rather than in the Scheduled Summary).
public struct NotificationSettings: Hashable, Sendable, Encodable {
    /// `UNNotificationSetting`.
    public enum Setting: String, Hashable, Sendable, Encodable {
        case notSupported, disabled, enabled
    }

    public var authorizationStatus: Authorization.Status
    public var alertSetting: Setting
    public var soundSetting: Setting
    public var badgeSetting: Setting
    public var timeSensitiveSetting: Setting
    public var criticalAlertSetting: Setting
    public var scheduledDeliverySetting: Setting
    public var directMessagesSetting: Setting
    public var alertStyle: AlertStyle

    /// The settings of `app` as iOS reports them (after ``AppModel/seen(at:)`` for an App Clip).
    public init(_ app: AppModel) {
        let authorization = app.authorization
        let decided = [.authorized, .provisional, .ephemeral].contains(authorization.status)
        func setting(_ on: Bool, needs entitlement: AppEntitlement? = nil) -> Setting {
            if let entitlement, !app.entitlements.contains(entitlement) { return .notSupported }
            return decided && on ? .enabled : .disabled
        }
        self.authorizationStatus = authorization.status
        self.alertSetting = setting(authorization.alert)
        self.soundSetting = setting(authorization.sound)
        self.badgeSetting = setting(authorization.badge)
        self.timeSensitiveSetting = setting(authorization.timeSensitive, needs: .timeSensitive)
        self.criticalAlertSetting = setting(authorization.criticalAlert, needs: .criticalAlerts)
        self.scheduledDeliverySetting = setting(authorization.scheduledDelivery)
        self.directMessagesSetting = setting(authorization.directMessages, needs: .communicationNotifications)
        self.alertStyle = app.alertStyle
    }
}

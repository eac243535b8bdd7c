/// How much a notification may interrupt (`aps.interruption-level`, iOS 15; UserNotifications'
/// `UNNotificationInterruptionLevel`). The raw values are the payload's words.
public enum InterruptionLevel: String, Hashable, Sendable, Codable, CaseIterable {
    /// Added to Notification Center without lighting the screen or playing a sound.
    case passive
    /// Presented at once, lighting the screen, with its sound: the default.
    case active
    /// As active, and may break through a Focus and the Scheduled Summary; needs the Time
    /// Sensitive Notifications capability and the user's setting.
    case timeSensitive = "time-sensitive"
    /// As active, its sound through the mute switch and a Focus; needs Apple's critical-alerts
    /// entitlement and the user's critical-alert authorization.
    case critical
}

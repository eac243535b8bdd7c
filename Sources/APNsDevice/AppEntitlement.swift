/// A capability an app's signature carries that changes how its notifications are presented.
/// The raw values are the names the admin API and the device protocol take.
public enum AppEntitlement: String, Hashable, Sendable, Codable, CaseIterable, Comparable {
    /// `com.apple.developer.usernotifications.time-sensitive`.
    case timeSensitive = "time-sensitive"
    /// `com.apple.developer.usernotifications.critical-alerts` (granted by Apple on request).
    case criticalAlerts = "critical-alerts"
    /// `com.apple.developer.usernotifications.communication`.
    case communicationNotifications = "communication-notifications"

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// How an authorized alert appears when the app is not in the foreground: the user's choice in
/// Settings between temporary banners, alerts that stay until acted on, and nothing on screen
/// (Notification Center only).
public enum AlertStyle: String, Hashable, Sendable, Codable, CaseIterable {
    case banner
    case alert
    case none

    /// The action context a notification shown this way offers: an alert has room for four
    /// actions, a banner (and the lock screen and Notification Center) for two.
    public var context: ActionContext { self == .alert ? .alert : .banner }
}

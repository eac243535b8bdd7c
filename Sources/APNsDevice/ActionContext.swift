/// Where the user sees a notification's actions: the default context (`alert`, up to four) or the
/// minimal one (`banner`, lock screen and Notification Center, up to two).
public enum ActionContext: String, Hashable, Sendable, Codable, CaseIterable {
    case banner
    case alert
}

/// Where the app is (UIKit's application states, as the notification system sees them).
public enum AppState: String, Hashable, Sendable, Codable, CaseIterable {
    case notRunning
    case background
    case foreground
}

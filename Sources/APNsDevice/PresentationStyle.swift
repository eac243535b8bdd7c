import APNsCore

public enum PresentationStyle: String, Hashable, Sendable, Codable {
    case alert
    case banner
    case none
}

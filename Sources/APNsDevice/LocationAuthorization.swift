import Foundation

/// What the user allows an app to know of the device's location (Core Location's statuses).
public enum LocationAuthorization: String, Hashable, Sendable, Codable, CaseIterable {
    case notDetermined
    case denied
    case authorizedWhenInUse
    case authorizedAlways

    public var allows: Bool { self == .authorizedWhenInUse || self == .authorizedAlways }
}

import Foundation

/// A circle on the map.
public struct Region: Hashable, Sendable, Codable {
    public var latitude: Double
    public var longitude: Double
    /// Metres.
    public var radius: Double
    public var notifyOnEntry: Bool
    public var notifyOnExit: Bool

    public init(latitude: Double, longitude: Double, radius: Double, notifyOnEntry: Bool = true, notifyOnExit: Bool = false) {
        (self.latitude, self.longitude, self.radius, self.notifyOnEntry, self.notifyOnExit) = (
            latitude, longitude, radius, notifyOnEntry, notifyOnExit
        )
    }

    /// Whether a point lies inside (great-circle distance, metres).
    public func contains(latitude: Double, longitude: Double) -> Bool {
        let radians = Double.pi / 180
        let dLat = (latitude - self.latitude) * radians
        let dLon = (longitude - self.longitude) * radians
        let a =
            sin(dLat / 2) * sin(dLat / 2) + cos(self.latitude * radians) * cos(latitude * radians) * sin(dLon / 2) * sin(dLon / 2)
        return 6_371_000 * 2 * atan2(a.squareRoot(), (1 - a).squareRoot()) <= self.radius
    }
}

import APNsCore

/// Something the payload asked for that the phone did not do.
public struct Suppression: Hashable, Sendable, Codable {
    /// `alert`, `sound` or `badge`.
    public var what: String
    public var reason: String

    public init(what: String, reason: String) {
        self.what = what
        self.reason = reason
    }
}

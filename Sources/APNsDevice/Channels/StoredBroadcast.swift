import APNsCore

/// A channel's stored message: what a subscriber that comes later is sent.
public struct StoredBroadcast: Codable, Hashable, Sendable {
    public var uniqueID: String
    /// The payload as UTF-8 text (the provider's JSON object).
    public var payload: String
    public var priority: Int
    public var receivedAt: Int64
    /// When it stops being handed out: its expiration, or 8 hours after it arrived if sooner.
    public var expiresAt: Int64

    public init(uniqueID: String, payload: [UInt8], priority: Int, receivedAt: Int64, expiresAt: Int64) {
        self.uniqueID = uniqueID
        self.payload = String(decoding: payload, as: UTF8.self)
        self.priority = priority
        self.receivedAt = receivedAt
        self.expiresAt = expiresAt
    }
}

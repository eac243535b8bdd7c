/// One provider token (JWT) a provider signed its requests with.
public struct ProviderTokenUse: Sendable {
    /// Its `iat`, in seconds since 1970.
    public var issuedAt: Int64?
    /// When the emulator first and last saw it (real time, ms).
    public var firstSeen: Int64
    public var lastSeen: Int64
    public var requests = 0
    /// The `apns-id` of the first request that carried it.
    public var firstApnsID: String?

    public init(issuedAt: Int64?, at: Int64) {
        self.issuedAt = issuedAt
        self.firstSeen = at
        self.lastSeen = at
    }

    /// A request carried it at `at`.
    mutating func counted(at: Int64, apnsID: String?, requests: Int = 1) {
        if self.requests == 0 { self.firstApnsID = apnsID }
        self.requests += requests
        self.lastSeen = max(self.lastSeen, at)
    }
}

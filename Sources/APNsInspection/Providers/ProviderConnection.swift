/// One provider connection, as the report card sees it.
public struct ProviderConnection: Sendable {
    public var id: UInt64
    public var peer: String
    /// Real time, in milliseconds since 1970.
    public var openedAt: Int64
    public var closedAt: Int64?
    public var requests = 0
    /// The `apns-id` of its first request: the evidence for a connection that carried one.
    public var firstApnsID: String?
    /// The GOAWAY the emulator sent on it: the last stream it processed, and when.
    public var goAway: (lastStream: Int32, at: Int64)?

    public init(id: UInt64, peer: String, openedAt: Int64) {
        self.id = id
        self.peer = peer
        self.openedAt = openedAt
    }
}

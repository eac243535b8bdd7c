/// Everything the report card keeps of one provider: its connections, the tokens it signed with,
/// and its most recent requests.
public struct ProviderHistory: Sendable {
    /// The most requests kept per provider; older ones are dropped (counted in `requests`).
    public static let keptRequests = 50_000

    public var identity: ProviderIdentity
    public var connections: [UInt64: ProviderConnection] = [:]
    /// By the JWT itself.
    public var tokens: [String: ProviderTokenUse] = [:]
    /// The most recent requests, oldest first.
    public var recent: [ProviderRequestRecord] = []
    /// Every request it sent.
    public var requests = 0
    /// When it sent the last one (real time, ms).
    public var lastSeen: Int64?
    /// The requests answered 200 with nothing to recognise later, counted rather than kept.
    public var tally = ProviderTally()

    public init(identity: ProviderIdentity) {
        self.identity = identity
    }

    mutating func add(_ record: ProviderRequestRecord, token: String?) {
        self.requests += 1
        self.lastSeen = max(self.lastSeen ?? 0, record.at)
        self.connections[record.connection]?.requests += 1
        if self.connections[record.connection]?.firstApnsID == nil {
            self.connections[record.connection]?.firstApnsID = record.apnsID
        }
        if let token {
            self.tokens[token, default: ProviderTokenUse(issuedAt: nil, at: record.at)].counted(
                at: record.at, apnsID: record.apnsID)
        }
        if self.recent.count >= Self.keptRequests { self.recent.removeFirst(Self.keptRequests / 10) }
        self.recent.append(record)
    }

    mutating func use(token: String, issuedAt: Int64?, at: Int64) {
        self.tokens[token, default: ProviderTokenUse(issuedAt: issuedAt, at: at)].lastSeen = at
        if self.tokens.count > Self.keptTokens {
            // A provider that signs a token per push under load: the oldest tenth go.
            for old in self.tokens.sorted(by: { $0.value.firstSeen < $1.value.firstSeen }).prefix(Self.keptTokens / 10) {
                self.tokens[old.key] = nil
            }
        }
    }

    /// The most tokens and closed connections kept per provider; past them the oldest tenth go
    /// (a provider that opens a connection, or signs a token, per push under load).
    public static let keptTokens = 20_000
    public static let keptConnections = 20_000

    /// A connection closed; past ``keptConnections`` the oldest tenth of the closed ones go.
    mutating func closed(_ id: UInt64, at: Int64) {
        self.connections[id]?.closedAt = at
        guard self.connections.count > Self.keptConnections else { return }
        let closed = self.connections.values.filter { $0.closedAt != nil }.map(\.id).sorted()
        for old in closed.prefix(Self.keptConnections / 10) { self.connections[old] = nil }
    }

    mutating func add(_ tally: ProviderTally, connection: UInt64, token: String?) {
        self.requests += tally.requests
        self.lastSeen = max(self.lastSeen ?? 0, tally.last)
        self.connections[connection]?.requests += tally.requests
        if self.connections[connection]?.firstApnsID == nil { self.connections[connection]?.firstApnsID = tally.first }
        if let token {
            self.tokens[token, default: ProviderTokenUse(issuedAt: nil, at: tally.last)].counted(
                at: tally.last, apnsID: tally.first, requests: tally.requests)
        }
        self.tally.add(tally)
    }
}

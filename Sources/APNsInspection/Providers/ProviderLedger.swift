import Synchronization

/// The report card's memory: every provider the HTTP/2 provider API has seen, with its
/// connections, tokens and recent requests. Connections hand it their events in batches, once
/// per event-loop tick that answers (``record(_:)``), so the accept path takes no lock of its
/// own per request; a report is judged when it is asked for (``ProviderReport``).
///
/// Thread-safe.
public final class ProviderLedger: Sendable {
    struct Connection {
        var record: ProviderConnection
        /// The provider its requests are from, once one was identified.
        var identity: ProviderIdentity?
        /// The provider token its requests carry now.
        var token: String?
    }

    struct State {
        var providers: [String: ProviderHistory] = [:]
        var connections: [UInt64: Connection] = [:]
        /// Requests each provider sent, for the exam.
        var examined: [String: Int] = [:]
    }

    private let state = Mutex(State())
    /// Until when (real time, ms) requests are fingerprinted: for ten minutes after any refusal
    /// or GOAWAY, which is when a request sent again has to be recognised. Under load with
    /// nothing refused, no request is hashed.
    private let attention = Atomic<Int64>(0)
    /// How long after a refusal or a GOAWAY requests are fingerprinted.
    static let attentionSpan: Int64 = 600_000
    /// Whether the exam is on (`serve --provider-exam`).
    public let exam: Bool

    public init(exam: Bool = false) {
        self.exam = exam
    }

    /// Takes a connection's events, in the order they happened.
    public func record(_ events: [ProviderEvent]) {
        guard !events.isEmpty else { return }
        var until: Int64 = 0
        self.state.withLock { state in
            for event in events {
                switch event {
                case .request(let record) where record.status != 200: until = max(until, record.at + Self.attentionSpan)
                case .goAway(_, _, let at): until = max(until, at + Self.attentionSpan)
                default: break
                }
                Self.apply(event, to: &state)
            }
        }
        if until > self.attention.load(ordering: .relaxed) { self.attention.store(until, ordering: .relaxed) }
    }

    /// Whether a request answered at `at` (real time, ms) is to be fingerprinted: one refused, or
    /// any within ten minutes of a refusal or a GOAWAY.
    public func wantsFingerprints(at: Int64) -> Bool {
        at <= self.attention.load(ordering: .relaxed)
    }

    private static func apply(_ event: ProviderEvent, to state: inout State) {
        switch event {
        case .opened(let id, let at, let peer):
            state.connections[id] = Connection(record: ProviderConnection(id: id, peer: peer, openedAt: at))
        case .closed(let id, let at):
            guard let connection = state.connections.removeValue(forKey: id), let provider = connection.identity?.id else {
                return
            }
            state.providers[provider]?.closed(id, at: at)
        case .identified(let id, let identity, let token, let issuedAt, let at):
            guard var connection = state.connections[id] else { return }
            connection.identity = identity
            connection.token = token
            state.connections[id] = connection
            if let token { Self.update(connection, &state) { $0.use(token: token, issuedAt: issuedAt, at: at) } }
        case .request(let record):
            guard let connection = state.connections[record.connection] else { return }
            Self.update(connection, &state) { $0.add(record, token: connection.token) }
        case .tally(let id, let tally):
            guard let connection = state.connections[id] else { return }
            Self.update(connection, &state) { $0.add(tally, connection: id, token: connection.token) }
        case .goAway(let id, let lastStream, let at):
            guard let connection = state.connections[id] else { return }
            Self.update(connection, &state) { history in
                if history.connections[id]?.goAway == nil { history.connections[id]?.goAway = (lastStream, at) }
            }
        }
    }

    /// Changes the history of the connection's provider in place (made on first use, with the
    /// connection in it); nothing for a connection not identified yet.
    private static func update(_ connection: Connection, _ state: inout State, _ body: (inout ProviderHistory) -> Void) {
        guard let identity = connection.identity else { return }
        if state.providers[identity.id]?.connections[connection.record.id] == nil {
            state.providers[identity.id, default: ProviderHistory(identity: identity)].connections[connection.record.id] =
                connection.record
        }
        body(&state.providers[identity.id, default: ProviderHistory(identity: identity)])
    }

    /// The exam's event for the next request of `provider`, if it meets one (counting it); nil,
    /// without a lock, when the exam is off.
    public func examEvent(for provider: ProviderIdentity) -> ProviderExam.Event? {
        guard self.exam else { return nil }
        let number = self.state.withLock { state -> Int in
            state.examined[provider.id, default: 0] += 1
            return state.examined[provider.id, default: 0]
        }
        return ProviderExam.event(forRequest: number, kind: provider.kind)
    }

    /// Every provider seen, the one seen last first.
    public func providers() -> [ProviderHistory] {
        self.state.withLock { Array($0.providers.values) }
            .sorted { ($0.lastSeen ?? 0, $0.identity.id) > ($1.lastSeen ?? 0, $1.identity.id) }
    }

    /// One provider's history, by its id.
    public func history(of id: String) -> ProviderHistory? {
        self.state.withLock { $0.providers[id] }
    }

    /// Forgets every provider (the admin API's reset); an open connection's next request counts afresh.
    public func reset() {
        self.state.withLock { state in
            state.providers = [:]
            state.examined = [:]
        }
    }
}

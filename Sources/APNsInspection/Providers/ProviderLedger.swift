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
    /// Whether the exam is on (`serve --provider-exam`).
    public let exam: Bool

    public init(exam: Bool = false) {
        self.exam = exam
    }

    /// Takes a connection's events, in the order they happened.
    public func record(_ events: [ProviderEvent]) {
        guard !events.isEmpty else { return }
        self.state.withLock { state in
            for event in events { Self.apply(event, to: &state) }
        }
    }

    private static func apply(_ event: ProviderEvent, to state: inout State) {
        switch event {
        case .opened(let id, let at, let peer):
            state.connections[id] = Connection(record: ProviderConnection(id: id, peer: peer, openedAt: at))
        case .closed(let id, let at):
            guard let connection = state.connections.removeValue(forKey: id), let provider = connection.identity?.id else {
                return
            }
            state.providers[provider]?.connections[id]?.closedAt = at
        case .identified(let id, let identity, let token, let issuedAt, let at):
            guard var connection = state.connections[id] else { return }
            connection.identity = identity
            connection.token = token
            state.connections[id] = connection
            if let token { Self.update(connection, &state) { $0.use(token: token, issuedAt: issuedAt, at: at) } }
        case .request(let record):
            guard let connection = state.connections[record.connection] else { return }
            Self.update(connection, &state) { $0.add(record, token: connection.token) }
        case .goAway(let id, let lastStream, let at):
            guard let connection = state.connections[id] else { return }
            Self.update(connection, &state) { history in
                if history.connections[id]?.goAway == nil { history.connections[id]?.goAway = (lastStream, at) }
            }
        }
    }

    /// Changes the history of the connection's provider (made on first use, with the connection
    /// in it); nothing for a connection not identified yet.
    private static func update(_ connection: Connection, _ state: inout State, _ body: (inout ProviderHistory) -> Void) {
        guard let identity = connection.identity else { return }
        let id = identity.id
        var history = state.providers.removeValue(forKey: id) ?? ProviderHistory(identity: identity)
        if history.connections[connection.record.id] == nil { history.connections[connection.record.id] = connection.record }
        body(&history)
        state.providers[id] = history
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
            .sorted { ($0.recent.last?.at ?? 0, $0.identity.id) > ($1.recent.last?.at ?? 0, $1.identity.id) }
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

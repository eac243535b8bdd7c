import APNsCore
import APNsStore

/// What the doors read of the store (tokens, queues, the feedback list), apart from the relay,
/// which accepts and delivers: the assembly makes one, and the admin API's device, token and
/// notification routes, the metrics, a device session's catch-up, the feedback service and the
/// world export each hold it. Reads only: a
/// change goes through the relay, in the writer's order.
struct StoreReader: Sendable {
    let store: NotificationStore

    /// Which tokens a push may go to.
    var tokenPolicy: TokenPolicy { self.store.configuration.tokenPolicy }

    /// The store's records of `tokens`, in order (nil for a token it does not know).
    func records(of tokens: [DeviceToken]) throws(StoreError) -> [(token: DeviceToken, record: TokenRecord?)] {
        var records: [(token: DeviceToken, record: TokenRecord?)] = []
        for token in tokens { records.append((token, try self.store.token(token))) }
        return records
    }

    /// `token`'s queued notifications, oldest first.
    func queued(for token: DeviceToken) throws(StoreError) -> [QueuedNotification] {
        try self.store.queued(for: token)
    }

    /// The tokens that became invalid and are not yet read, limited to `topics` when given.
    /// `environment`: only the tokens of that environment's builds (a feedback connection's:
    /// its SNI's host, or the port's), as each of Apple's feedback hosts lists its own.
    func feedback(topics: Set<String>? = nil, environment: APNsEnvironment? = nil) throws(StoreError) -> [FeedbackEntry] {
        var entries = try self.store.feedback()
        if let topics { entries = entries.filter { topics.contains($0.topic) } }
        guard let environment else { return entries }
        var kept: [FeedbackEntry] = []
        for entry in entries where try self.store.token(entry.token)?.environment ?? environment == environment {
            kept.append(entry)
        }
        return kept
    }

    /// Every token the store knows, with how many notifications each has queued.
    func tokens() throws(StoreError) -> (records: [TokenRecord], queued: [DeviceToken: Int]) {
        (try self.store.tokens(), try self.store.queueCounts())
    }

    /// The tokens, as hex, registered to device `deviceID` (nil when the store knows none): a
    /// journal search's `device:`.
    func tokens(ofDevice deviceID: String) -> Set<String>? {
        let records = (try? self.store.tokens()) ?? []
        let tokens = Set(records.filter { $0.deviceID == deviceID }.map(\.token.hex))
        return tokens.isEmpty ? nil : tokens
    }

    /// How many notifications wait in all queues.
    func queuedCount() throws(StoreError) -> Int { try self.store.queuedCount() }
}

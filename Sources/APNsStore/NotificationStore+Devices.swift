import APNsCore

extension NotificationStore {
    /// What the store knows of a token, if it issued or unregistered it.
    public func token(_ token: DeviceToken) throws(StoreError) -> TokenRecord? {
        try self.read { txn throws(StoreError) in
            guard let bytes = try txn.get(self.environment.tokens, token.bytes) else { return nil }
            return try TokenRecordCodec.decode(token: token, bytes)
        }
    }

    /// Why a push to `token` for `topic` would be refused now, as the writer would decide it;
    /// `nil` when it would be taken. Lets a front door refuse before submitting.
    public func tokenRefusal(
        for token: DeviceToken, topic: String?, environment: APNsEnvironment
    ) throws(StoreError) -> StoreOutcome? {
        self.configuration.tokenPolicy.refusal(for: try self.token(token), topic: topic, environment: environment)
    }

    /// Every token the store knows, in token order.
    public func tokens(limit: Int = .max) throws(StoreError) -> [TokenRecord] {
        try self.read { txn throws(StoreError) in
            var records: [TokenRecord] = []
            try txn.scan(self.environment.tokens) { key, value throws(StoreError) in
                guard records.count < limit else { return false }
                guard let token = DeviceToken(bytes: Array(key)) else { throw .corruptRecord("token key") }
                records.append(try TokenRecordCodec.decode(token: token, value))
                return true
            }
            return records
        }
    }

    /// How many notifications are queued for `token`.
    public func queuedCount(for token: DeviceToken) throws(StoreError) -> Int {
        try self.read { txn throws(StoreError) in
            try self.environment.queueLength(token, txn)
        }
    }

    /// Tokens that became invalid and have not been read by the feedback service.
    public func feedback() throws(StoreError) -> [FeedbackEntry] {
        try self.read { txn throws(StoreError) in
            var entries: [FeedbackEntry] = []
            try txn.scan(self.environment.feedback) { key, value throws(StoreError) in
                guard let token = DeviceToken(bytes: Array(key)) else { throw .corruptRecord("feedback key") }
                entries.append(try TokenRecordCodec.decodeFeedback(token: token, value))
                return true
            }
            return entries
        }
    }
}

extension NotificationStore {
    /// Every token with queued notifications, and how many.
    public func queueCounts() throws(StoreError) -> [DeviceToken: Int] {
        try self.read { txn throws(StoreError) in
            // Queue keys are token length u8 · token · sequence u64.
            var counts: [DeviceToken: Int] = [:]
            try txn.scan(self.environment.queue) { key, _ throws(StoreError) in
                guard key.count >= 9, let token = DeviceToken(bytes: Array(key[1..<(key.count - 8)])) else {
                    throw .corruptRecord("queue key")
                }
                counts[token, default: 0] += 1
                return true
            }
            return counts
        }
    }
}

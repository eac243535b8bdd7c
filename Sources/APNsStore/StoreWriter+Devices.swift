import APNsCore

extension StoreWriter {
    /// Records a new token, or makes an unregistered one valid again (an app reinstalled on the
    /// same device may get its old token back); inside a commit only (the commit lock held).
    func register(
        _ token: DeviceToken,
        topic: String,
        deviceID: String?,
        environment: APNsEnvironment?,
        _ txn: Transaction,
        nowMillis: Int64
    ) throws(StoreError) -> StoreOutcome {
        if let bytes = try txn.get(self.environment.tokens, token.bytes) {
            guard try TokenRecordCodec.decode(token: token, bytes).unregisteredAt != nil else { return .tokenTaken }
        }
        let record = TokenRecord(
            token: token, topic: topic, deviceID: deviceID, registeredAt: nowMillis, unregisteredAt: nil,
            environment: environment ?? self.configuration.defaultEnvironment)
        try txn.put(self.environment.tokens, token.bytes, TokenRecordCodec.encode(record))
        // A token that registers again is valid again and no longer reported as gone.
        try txn.delete(self.environment.feedback, token.bytes)
        return .registered
    }

    /// Writes a token's record as given (a seed): registered, or unregistered at its time and
    /// then listed for feedback unless a provider read that already.
    func restore(_ record: TokenRecord, feedbackRead: Bool, _ txn: Transaction) throws(StoreError) -> StoreOutcome {
        try txn.put(self.environment.tokens, record.token.bytes, TokenRecordCodec.encode(record))
        if let at = record.unregisteredAt, !feedbackRead {
            try txn.put(
                self.environment.feedback, record.token.bytes, TokenRecordCodec.encodeFeedback(at: at, topic: record.topic))
        } else {
            _ = try txn.delete(self.environment.feedback, record.token.bytes)
        }
        return .registered
    }

    /// Marks a token unregistered now, drops its queue and records it for feedback; inside a commit only (the commit lock held).
    /// A token unregistered before keeps its first time.
    func unregister(_ token: DeviceToken, _ txn: Transaction, nowMillis: Int64) throws(StoreError) -> StoreOutcome {
        var record: TokenRecord
        if let bytes = try txn.get(self.environment.tokens, token.bytes) {
            record = try TokenRecordCodec.decode(token: token, bytes)
            if let at = record.unregisteredAt { return .unregistered(timestamp: at) }
        } else {
            // An open-mode token nobody registered: remember it, with the topic and environment its queue shows.
            let first = try self.firstQueued(token, txn)
            record = TokenRecord(
                token: token, topic: first?.topic ?? "", deviceID: nil, registeredAt: nowMillis, unregisteredAt: nil,
                environment: first?.environment ?? self.configuration.defaultEnvironment)
        }
        record.unregisteredAt = nowMillis
        try txn.put(self.environment.tokens, token.bytes, TokenRecordCodec.encode(record))
        try txn.put(self.environment.feedback, token.bytes, TokenRecordCodec.encodeFeedback(at: nowMillis, topic: record.topic))

        for entry in try self.queueEntries(token, txn) {
            try self.removeQueued(entry.key, record: entry.record, status: .unregistered, txn, nowMillis: nowMillis)
        }
        return .unregistered(timestamp: nowMillis)
    }

    /// Removes feedback entries a provider has read; an entry whose time changed since stays.
    func clearFeedback(_ entries: [FeedbackEntry], _ txn: Transaction) throws(StoreError) -> StoreOutcome {
        var cleared = 0
        for entry in entries {
            guard let bytes = try txn.get(self.environment.feedback, entry.token.bytes) else { continue }
            let stored = try bytes.withUnsafeBytes { raw in
                Result { () throws(StoreError) in try TokenRecordCodec.decodeFeedback(token: entry.token, raw) }
            }.get()
            guard stored.at == entry.at else { continue }
            try txn.delete(self.environment.feedback, entry.token.bytes)
            cleared += 1
        }
        return .feedbackCleared(count: cleared)
    }

    /// Takes an acknowledged notification out of its queue and logs it as delivered; inside a commit only (the commit lock held).
    func acknowledge(_ uniqueID: String, _ txn: Transaction, nowMillis: Int64) throws(StoreError) -> StoreOutcome {
        guard let queueKey = try txn.get(self.environment.unique, StoreKeys.uniqueKey(uniqueID)),
            let record = try self.queuedRecord(queueKey, txn)
        else { return .acknowledged(false) }
        try self.removeQueued(queueKey, record: record, status: .delivered, txn, nowMillis: nowMillis)
        return .acknowledged(true)
    }

    private func firstQueued(_ token: DeviceToken, _ txn: Transaction) throws(StoreError) -> Notification? {
        guard let first = try self.queueEntries(token, txn, limit: 1).first else { return nil }
        return try NotificationCodec.decode(first.record)
    }
}

import APNsCore
import CLMDB

extension StoreWriter {
    /// The most expired notifications moved in one sweep transaction; the rest wait for the next.
    static let sweepBatchLimit = 10_000

    /// Applies one operation inside the writer's transaction; inside a commit only (the commit lock held).
    func apply(
        _ operation: StoreOperation,
        _ txn: Transaction,
        nowMillis: Int64,
        sequence: inout UInt64
    ) throws(StoreError) -> StoreOutcome {
        switch operation {
        case .accept(let notification):
            return try self.accept(notification, connected: false, txn, nowMillis: nowMillis, sequence: &sequence)
        case .acceptForConnectedDevice(let notification):
            return try self.accept(notification, connected: true, txn, nowMillis: nowMillis, sequence: &sequence)
        case .record(let notification, let status):
            try self.putLog(
                txn, sequence: sequence, status: status, at: nowMillis, record: NotificationCodec.encode(notification))
            self.publish(
                .accepted(notification, sequence: sequence, at: nowMillis, status: status, connected: status == .delivered))
            sequence += 1
            return .recorded
        case .sweepExpired:
            let swept = try self.sweep(txn, nowMillis: nowMillis)
            _ = try self.trimHistory(olderThan: nowMillis, txn)
            return .swept(count: swept)
        case .acknowledge(let uniqueID):
            return try self.acknowledge(uniqueID, txn, nowMillis: nowMillis)
        case .register(let token, let topic, let deviceID, let environment):
            return try self.register(token, topic: topic, deviceID: deviceID, environment: environment, txn, nowMillis: nowMillis)
        case .restoreToken(let record, let feedbackRead):
            return try self.restore(record, feedbackRead: feedbackRead, txn)
        case .unregister(let token):
            return try self.unregister(token, txn, nowMillis: nowMillis)
        case .clearFeedback(let entries):
            return try self.clearFeedback(entries, txn)
        case .delete(let keys):
            return try self.delete(keys, txn)
        case .clear(let devices):
            return try self.clear(devices: devices, txn)
        case .saveApp(let change):
            return try self.saveApp(change, txn, sequence: &sequence)
        case .recordRejection(let key, let record):
            try txn.put(self.environment.rejections, key.bytes, record)
            return .recorded
        case .recordPhone(let sequence, let record):
            return try self.recordPhone(sequence: sequence, record: record, txn)
        case .deleteRejections(let keys):
            var deleted = 0
            for key in keys where try txn.delete(self.environment.rejections, key.bytes) { deleted += 1 }
            return .deleted(count: deleted)
        case .saveChannel(let channel):
            try txn.put(self.environment.channels, StoreKeys.channelKey(channel.bundleID, channel.id), AppCodec.encode(channel))
            return .channelSaved
        case .saveBroadcastSetting(let bundleID, let enabled):
            let key = StoreKeys.broadcastSettingKey(bundleID)
            if enabled {
                _ = try txn.delete(self.environment.channels, key)
            } else {
                try txn.put(self.environment.channels, key, [0])
            }
            return .channelSaved
        }
    }

    /// Moves notifications whose expiration has passed from their queues to the log.
    private func sweep(_ txn: Transaction, nowMillis: Int64) throws(StoreError) -> Int {
        let nowSeconds = UInt64(max(nowMillis / 1000, 0))
        var due: [(expiryKey: [UInt8], queueKey: [UInt8])] = []
        try txn.scan(self.environment.expiry) { key, value throws(StoreError) in
            guard key.count == 16, key.readBigEndianUInt64(at: 0) <= nowSeconds, due.count < Self.sweepBatchLimit else {
                return false
            }
            due.append((Array(key), Array(value)))
            return true
        }
        var moved = 0
        for entry in due {
            try txn.delete(self.environment.expiry, entry.expiryKey)
            guard try txn.get(self.environment.queue, entry.queueKey) != nil,
                let record = try self.queuedRecord(entry.queueKey, txn)
            else { continue }
            try self.removeQueued(
                entry.queueKey, record: record, status: .expired, txn, nowMillis: nowMillis, expiryDeleted: true)
            moved += 1
        }
        return moved
    }

    /// Takes one queued notification out of its queue and every index, and enters why in the
    /// history (a deleted one, `status` nil, leaves no trace: its record leaves the log too).
    func removeQueued(
        _ queueKey: [UInt8],
        record: [UInt8],
        status: LogStatus?,
        _ txn: Transaction,
        nowMillis: Int64,
        expiryDeleted: Bool = false
    ) throws(StoreError) {
        try self.removeQueued(
            queueKey, NotificationCodec.decode(record), status: status, txn, nowMillis: nowMillis,
            expiryDeleted: expiryDeleted)
    }

    /// ``removeQueued(_:record:status:_:nowMillis:expiryDeleted:)`` with the record decoded;
    /// `adjustsLength` false leaves the token's queue length to the caller (a replacement counts
    /// the new notification and the ones it replaced as one change).
    func removeQueued(
        _ queueKey: [UInt8],
        _ notification: Notification,
        status: LogStatus?,
        _ txn: Transaction,
        nowMillis: Int64,
        expiryDeleted: Bool = false,
        adjustsLength: Bool = true
    ) throws(StoreError) {
        try self.takeOut(
            queueKey,
            expiration: expiryDeleted
                ? nil : notification.effectiveExpiration(maximumStorageSeconds: self.configuration.maximumStorageSeconds),
            uniqueKey: StoreKeys.uniqueKey(notification.uniqueID), of: notification.token, .whole(notification),
            status: status, txn, nowMillis: nowMillis, adjustsLength: adjustsLength)
    }

    /// Takes a queued notification a newer one replaced out of its queue and its indexes, from the
    /// fields its record was read for (not decoded whole: this runs for nearly every notification
    /// an offline device gets under the default storage policy). Its record stays in the log; the
    /// history says where it went. The token's queue length is the caller's.
    func removeReplaced(
        _ queueKey: [UInt8], _ fields: NotificationCodec.QueuedFields, of token: DeviceToken, _ txn: Transaction,
        nowMillis: Int64
    ) throws(StoreError) {
        let expiration = APNsCore.Notification.effectiveExpiration(
            fields.expiration, receivedAt: fields.receivedAt,
            maximumStorageSeconds: self.configuration.maximumStorageSeconds)
        try self.takeOut(
            queueKey, expiration: expiration, uniqueKey: fields.uniqueID, of: token,
            .summary(token: token, pushType: fields.pushType, priority: fields.priority), status: .replaced, txn,
            nowMillis: nowMillis, adjustsLength: false)
    }

    /// Deletes a queued notification's queue key, its expiry key (unless `expiration` is nil:
    /// already deleted) and its unique-id key; with a `status`, enters it in the history and tells
    /// the observers, else forgets its record.
    private func takeOut(
        _ queueKey: [UInt8], expiration: Int64?, uniqueKey: [UInt8], of token: DeviceToken, _ left: LeftNotification,
        status: LogStatus?, _ txn: Transaction, nowMillis: Int64, adjustsLength: Bool
    ) throws(StoreError) {
        let sequence = queueKey.withUnsafeBytes { StoreKeys.sequence(ofQueueKey: $0) }
        try txn.delete(self.environment.queue, queueKey)
        if let expiration {
            try txn.delete(self.environment.expiry, StoreKeys.expiryKey(expiration: expiration, sequence: sequence))
        }
        try txn.delete(self.environment.unique, uniqueKey)
        if adjustsLength { try self.adjustQueueLength(token, by: -1, txn) }
        guard let status else {
            try self.forgetRecord(sequence: sequence, txn)
            return
        }
        // The record stays where it is in the log; the history says where it went.
        try self.appendHistory(txn, HistoryEntry(sequence: sequence, status: status, at: nowMillis))
        self.publish(.left(left, sequence: sequence, status: status, at: nowMillis))
    }

    /// Forgets notifications: out of their queues without a log entry, and out of the log.
    private func delete(_ keys: [StoredNotificationKey], _ txn: Transaction) throws(StoreError) -> StoreOutcome {
        var deleted = 0
        for key in keys {
            let queueKey = StoreKeys.queueKey(key.token, sequence: key.sequence)
            if try txn.get(self.environment.queue, queueKey) != nil, let record = try self.queuedRecord(queueKey, txn) {
                try self.removeQueued(queueKey, record: record, status: nil, txn, nowMillis: 0)
                deleted += 1
            } else if try self.forgetRecord(sequence: key.sequence, txn) {
                deleted += 1
            }
        }
        return .deleted(count: deleted)
    }

    /// Empties the queues, their indexes, the log and the feedback list (and the tokens).
    private func clear(devices: Bool, _ txn: Transaction) throws(StoreError) -> StoreOutcome {
        let environment = self.environment
        for dbi in [
            environment.queue, environment.expiry, environment.unique, environment.log, environment.history, environment.phone,
            environment.feedback, environment.rejections,
        ] {
            try txn.empty(dbi)
        }
        try txn.empty(environment.delivered)
        if devices {
            try txn.empty(environment.tokens)
            try txn.empty(environment.apps)
            try txn.empty(environment.appBroadcasts)
            try txn.empty(environment.channels)
        }
        self.queueLengths.withLock { $0.removeAll() }
        self.publish(.cleared(devices: devices))
        return .cleared
    }

    /// A token's queue as raw entries (queue key and record), oldest first, at most `limit`.
    func queueEntries(
        _ token: DeviceToken, _ txn: Transaction, limit: Int = .max
    ) throws(StoreError) -> [(key: [UInt8], record: [UInt8])] {
        var entries: [(key: [UInt8], record: [UInt8])] = []
        for key in try self.queueKeys(token, txn, limit: limit) {
            guard let record = try self.queuedRecord(key, txn) else {
                throw .corruptRecord("queued notification missing from the log")
            }
            entries.append((key, record))
        }
        return entries
    }

    /// The keys of a token's queue, oldest first, at most `limit`.
    func queueKeys(_ token: DeviceToken, _ txn: Transaction, limit: Int = .max) throws(StoreError) -> [[UInt8]] {
        let prefix = StoreKeys.queuePrefix(token)
        var keys: [[UInt8]] = []
        try txn.scan(self.environment.queue, from: prefix) { key, _ in
            guard keys.count < limit, key.count == prefix.count + 8, key.starts(with: prefix) else { return false }
            keys.append(Array(key))
            return true
        }
        return keys
    }

    /// Updates `token`'s queue length by `delta` (after the change was written); returns the new length.
    @discardableResult
    func adjustQueueLength(_ token: DeviceToken, by delta: Int, _ txn: Transaction) throws(StoreError) -> Int {
        // A known length changes in place: one hash of the token (this runs for every notification).
        let known = self.queueLengths.withLock { lengths -> Int? in
            guard let index = lengths.index(forKey: token) else { return nil }
            let updated = max(0, lengths.values[index] + delta)
            if updated == 0 { lengths.remove(at: index) } else { lengths.values[index] = updated }
            return updated
        }
        if let known { return known }
        // Not yet known: the queue already holds the change, so the count includes it.
        let counted = try self.environment.queueLength(token, txn)
        if counted > 0 { self.queueLengths.withLock { $0[token] = counted } }
        return counted
    }

    /// The body of a batch's transaction: every operation in order, then the log trimmed (when
    /// something was logged) and the next sequence number stored.
    func write(
        _ batch: [Submission], _ txn: Transaction, nowMillis now: Int64, sequence: inout UInt64
    ) throws(StoreError) -> [[StoreOutcome]] {
        var outcomes: [[StoreOutcome]] = []
        outcomes.reserveCapacity(batch.count)
        var logged = false
        for submission in batch {
            var submissionOutcomes: [StoreOutcome] = []
            submissionOutcomes.reserveCapacity(submission.operations.count)
            for operation in submission.operations {
                if self.configuration.checksOperations, let problem = operation.problem {
                    submissionOutcomes.append(.refused(problem))
                    continue
                }
                let outcome = try self.apply(operation, txn, nowMillis: now, sequence: &sequence)
                switch outcome {
                case .queued, .discarded, .deliverOnce, .recorded, .acknowledged(true), .unregistered: logged = true
                case .swept(let count) where count > 0: logged = true
                default: break
                }
                submissionOutcomes.append(outcome)
            }
            outcomes.append(submissionOutcomes)
        }
        if logged { try self.trimHistory(txn) }
        var sequenceBytes: [UInt8] = []
        sequenceBytes.appendBigEndian(sequence)
        try txn.put(self.environment.meta, StoreKeys.nextSequence, sequenceBytes)
        return outcomes
    }
}

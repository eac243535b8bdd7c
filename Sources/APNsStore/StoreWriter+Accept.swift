import APNsCore

extension StoreWriter {
    /// Queues an accepted notification, applying the token and storage policies; inside a commit only (the commit lock held).
    func accept(
        _ notification: Notification,
        connected: Bool,
        _ txn: Transaction,
        nowMillis: Int64,
        sequence: inout UInt64
    ) throws(StoreError) -> StoreOutcome {
        if let refusal = try self.tokenRefusal(for: notification, txn) { return refusal }

        let assigned = sequence
        sequence += 1
        let maximumStorage = self.configuration.maximumStorageSeconds
        guard notification.isStorable(nowSeconds: nowMillis / 1000, maximumStorageSeconds: maximumStorage) else {
            let status: LogStatus = connected ? .delivered : .discarded
            try self.putLog(
                txn, sequence: assigned, status: status, at: nowMillis, record: NotificationCodec.encode(notification))
            self.publish(.accepted(notification, sequence: assigned, at: nowMillis, status: status, connected: connected))
            return connected ? .deliverOnce : .discarded
        }

        if notification.collapseID != nil || self.configuration.storagePolicy == .latest {
            try self.replaceOlder(than: notification, txn, nowMillis: nowMillis)
        }

        // The record is encoded once, straight into the log's last page (appended: full pages, no
        // splits); the queue and the indexes hold only keys, laid out on the stack.
        let expiration = notification.effectiveExpiration(maximumStorageSeconds: maximumStorage)
        let size = LogValue.headerSize + NotificationCodec.size(of: notification)
        try StoreKeys.withNumberKey(assigned) { logKey throws(StoreError) in
            try txn.reserveGrowing(self.environment.log, key: logKey, size: size) { value in
                LogValue.writeHeader(status: nil, at: nowMillis, into: value)
                NotificationCodec.encode(
                    notification, into: UnsafeMutableRawBufferPointer(rebasing: value[LogValue.headerSize...]))
            }
        }
        try StoreKeys.withQueueKey(notification.token, sequence: assigned) { queueKey throws(StoreError) in
            try txn.put(self.environment.queue, key: queueKey, value: UnsafeRawBufferPointer(start: nil, count: 0))
            try StoreKeys.withExpiryKey(expiration: expiration, sequence: assigned) { expiryKey throws(StoreError) in
                try txn.putGrowing(self.environment.expiry, key: expiryKey, value: queueKey)
            }
            var uniqueID = notification.uniqueID
            let stored = uniqueID.withUTF8 { uniqueKey in
                Result { () throws(StoreError) in
                    try txn.putGrowing(self.environment.unique, key: UnsafeRawBufferPointer(uniqueKey), value: queueKey)
                }
            }
            try stored.get()
        }
        let queued = try self.adjustQueueLength(notification.token, by: 1, txn)
        self.publish(.accepted(notification, sequence: assigned, at: nowMillis, status: nil, connected: connected))

        if self.configuration.storagePolicy == .all {
            let excess = queued - self.configuration.maximumQueuedPerDevice
            if excess > 0 { try self.dropOldest(excess, of: notification.token, txn, nowMillis: nowMillis) }
        }
        return .queued(sequence: assigned)
    }

    /// Why APNs would refuse a push to this token, if the store knows of a reason.
    private func tokenRefusal(for notification: Notification, _ txn: Transaction) throws(StoreError) -> StoreOutcome? {
        let record = try txn.get(self.environment.tokens, notification.token.bytes).map { bytes throws(StoreError) in
            try TokenRecordCodec.decode(token: notification.token, bytes)
        }
        return self.configuration.tokenPolicy.refusal(for: record, topic: notification.topic)
    }

    /// Removes queued notifications the new one replaces: same topic and collapse id, or, under
    /// the `latest` policy, every older one of the same topic.
    private func replaceOlder(than notification: Notification, _ txn: Transaction, nowMillis: Int64) throws(StoreError) {
        let latest = self.configuration.storagePolicy == .latest
        for entry in try self.queueEntries(notification.token, txn) {
            let queued = try NotificationCodec.decode(entry.record)
            let sameTopic = queued.topic == notification.topic
            guard sameTopic && (latest || (notification.collapseID != nil && queued.collapseID == notification.collapseID)) else {
                continue
            }
            try self.removeQueued(entry.key, record: entry.record, status: .replaced, txn, nowMillis: nowMillis)
        }
    }

    /// Drops the `count` oldest notifications of a token's queue.
    private func dropOldest(_ count: Int, of token: DeviceToken, _ txn: Transaction, nowMillis: Int64) throws(StoreError) {
        for entry in try self.queueEntries(token, txn, limit: count) {
            try self.removeQueued(entry.key, record: entry.record, status: .dropped, txn, nowMillis: nowMillis)
        }
    }
}

import APNsCore

extension StoreWriter {
    /// The most expired notifications moved in one sweep transaction; the rest wait for the next.
    static let sweepBatchLimit = 10_000

    /// Applies one operation inside the writer's transaction; writer thread only.
    func apply(
        _ operation: StoreOperation,
        _ txn: Transaction,
        nowMillis: Int64,
        sequence: inout UInt64
    ) throws(StoreError) -> StoreOutcome {
        switch operation {
        case .accept(let notification):
            let assigned = sequence
            sequence += 1
            let record = NotificationCodec.encode(notification)
            let maximumStorage = self.configuration.maximumStorageSeconds
            guard notification.isStorable(nowSeconds: nowMillis / 1000, maximumStorageSeconds: maximumStorage) else {
                try self.putLog(txn, sequence: assigned, status: .discarded, at: nowMillis, record: record)
                return .discarded
            }
            let queueKey = StoreKeys.queueKey(notification.token, sequence: assigned)
            try txn.put(self.environment.queue, queueKey, record)
            let expiration = notification.effectiveExpiration(maximumStorageSeconds: maximumStorage)
            try txn.put(self.environment.expiry, StoreKeys.expiryKey(expiration: expiration, sequence: assigned), queueKey)
            try txn.put(self.environment.unique, StoreKeys.uniqueKey(notification.uniqueID), queueKey)
            return .queued(sequence: assigned)

        case .sweepExpired:
            return .swept(count: try self.sweep(txn, nowMillis: nowMillis))
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
        for entry in due {
            try txn.delete(self.environment.expiry, entry.expiryKey)
            guard let record = try txn.get(self.environment.queue, entry.queueKey) else { continue }
            let notification = try NotificationCodec.decode(record)
            try txn.delete(self.environment.queue, entry.queueKey)
            try txn.delete(self.environment.unique, StoreKeys.uniqueKey(notification.uniqueID))
            let sequence = entry.queueKey.withUnsafeBytes { StoreKeys.sequence(ofQueueKey: $0) }
            try self.putLog(txn, sequence: sequence, status: .expired, at: nowMillis, record: record)
        }
        return due.count
    }

    private func putLog(_ txn: Transaction, sequence: UInt64, status: LogStatus, at: Int64, record: [UInt8]) throws(StoreError) {
        var value: [UInt8] = [status.rawValue]
        value.reserveCapacity(9 + record.count)
        value.appendBigEndian(UInt64(bitPattern: at))
        value.append(contentsOf: record)
        try txn.put(self.environment.log, StoreKeys.logKey(sequence: sequence), value)
    }

    /// Drops the oldest log entries beyond the configured limit.
    func trimLog(_ txn: Transaction) throws(StoreError) {
        let excess = try txn.count(self.environment.log) - self.configuration.logLimit
        guard excess > 0 else { return }
        var oldest: [[UInt8]] = []
        try txn.scan(self.environment.log) { key, _ in
            oldest.append(Array(key))
            return oldest.count < excess
        }
        for key in oldest { try txn.delete(self.environment.log, key) }
    }
}

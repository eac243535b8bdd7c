import APNsCore

/// The log (every record, once) and the history (where each went, in order): the writer's side.
extension StoreWriter {
    /// Writes a notification that enters the history at once (discarded, delivered once,
    /// recorded): its record with `status`, and its history entry.
    func putLog(_ txn: Transaction, sequence: UInt64, status: LogStatus, at: Int64, record: [UInt8]) throws(StoreError) {
        // Sequences only grow: the log's pages fill up instead of splitting in the middle.
        try StoreKeys.withNumberKey(sequence) { key throws(StoreError) in
            try txn.reserveGrowing(self.environment.log, key: key, size: LogValue.headerSize + record.count) { value in
                LogValue.writeHeader(status: status, at: at, into: value)
                record.withUnsafeBytes { source in
                    guard let from = source.baseAddress, let to = value.baseAddress else { return }
                    (to + LogValue.headerSize).copyMemory(from: from, byteCount: record.count)
                }
            }
        }
        try self.appendHistory(txn, HistoryEntry(sequence: sequence, status: status, at: at))
    }

    /// Appends `entry` to the history, under the next number.
    func appendHistory(_ txn: Transaction, _ entry: HistoryEntry) throws(StoreError) {
        let number = self.historyNumbers.withLock { next in
            defer { next += 1 }
            return next
        }
        try StoreKeys.withNumberKey(number) { key throws(StoreError) in
            try entry.withValue { value throws(StoreError) in try txn.putGrowing(self.environment.history, key: key, value: value)
            }
        }
    }

    /// Deletes a notification's record from the log, and the phone's record of it; returns
    /// whether the log held it.
    @discardableResult
    func forgetRecord(sequence: UInt64, _ txn: Transaction) throws(StoreError) -> Bool {
        let key = StoreKeys.logKey(sequence: sequence)
        try txn.delete(self.environment.phone, key)
        return try txn.delete(self.environment.log, key)
    }

    /// Writes the phone's record of a notification the log holds.
    func recordPhone(sequence: UInt64, record: [UInt8], _ txn: Transaction) throws(StoreError) -> StoreOutcome {
        let key = StoreKeys.logKey(sequence: sequence)
        guard try txn.get(self.environment.log, key) != nil else { return .phoneRecorded(false) }
        try txn.put(self.environment.phone, key, record)
        return .phoneRecorded(true)
    }

    /// The record of the notification a queue key names, from the log; nil when the log has none.
    func queuedRecord(_ queueKey: [UInt8], _ txn: Transaction) throws(StoreError) -> [UInt8]? {
        try txn.withValue(self.environment.log, key: StoreKeys.logKey(ofQueueKey: queueKey)) { value throws(StoreError) in
            Array(try LogValue.record(of: value))
        }
    }

    /// The number the next history entry gets: one past the history's last.
    static func nextHistoryNumber(_ environment: LMDBEnvironment) throws(StoreError) -> UInt64 {
        try environment.read { txn throws(StoreError) -> UInt64 in
            var last: UInt64 = 0
            try txn.scan(environment.history, reverse: true) { key, _ in
                if key.count == 8 { last = key.readBigEndianUInt64(at: 0) }
                return false
            }
            return last + 1
        }
    }
}

import APNsCore

/// Brings a store written before the log held every record to the log's layout, once, at open:
/// each queued record moves from its queue into the log (the queue keeps the key), and each
/// logged one gets its history entry, in the order they left (their time). Format 2 is recorded
/// in the same transaction, so a crash midway leaves the old layout whole, to be migrated again.
enum StoreMigration {
    static let currentFormat: UInt8 = 2

    /// Migrates `environment` if it is older than ``currentFormat``; returns how many records moved.
    @discardableResult
    static func migrate(_ environment: LMDBEnvironment) throws(StoreError) -> Int {
        try environment.write { txn throws(StoreError) -> Int in
            if let format = try txn.get(environment.meta, StoreKeys.format), format.first ?? 0 >= Self.currentFormat { return 0 }
            // Logged before: the status and time are in the log's value; the history takes them in time order.
            var left: [HistoryEntry] = []
            try txn.scan(environment.log) { key, value throws(StoreError) in
                guard key.count == 8, let header = try LogValue.header(of: value) else { return true }
                left.append(HistoryEntry(sequence: key.readBigEndianUInt64(at: 0), status: header.status, at: header.at))
                return true
            }
            left.sort { ($0.at, $0.sequence) < ($1.at, $1.sequence) }
            for (index, entry) in left.enumerated() {
                try StoreKeys.withNumberKey(UInt64(index + 1)) { key throws(StoreError) in
                    try entry.withValue { value throws(StoreError) in
                        try txn.putGrowing(environment.history, key: key, value: value)
                    }
                }
            }
            // Queued before: the record was the queue's value.
            var queued: [(key: [UInt8], record: [UInt8])] = []
            try txn.scan(environment.queue) { key, value in
                if !value.isEmpty { queued.append((Array(key), Array(value))) }
                return true
            }
            for entry in queued {
                var value: [UInt8] = [LogValue.queuedMarker]
                value.appendBigEndian(UInt64(0))
                value.append(contentsOf: entry.record)
                try txn.put(environment.log, StoreKeys.logKey(ofQueueKey: entry.key), value)
                try txn.put(environment.queue, entry.key, [])
            }
            try txn.put(environment.meta, StoreKeys.format, [Self.currentFormat])
            return left.count + queued.count
        }
    }
}

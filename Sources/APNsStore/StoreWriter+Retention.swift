import APNsCore
import CLMDB

/// Keeping the history within `--retain` (``Retention``): the notifications that left their
/// queues and the rejected requests, the oldest first by when each entered the history (left its
/// queue, or was refused). Queued notifications are not history and never go here.
extension StoreWriter {
    /// One entry of the history, in either database: a notification's (the history's number, and
    /// the sequence it names) or a rejected request's.
    struct HistoryItem {
        var dbi: MDB_dbi
        var key: [UInt8]
        var sequence: UInt64?
        var at: Int64
    }

    /// After a transaction that added history: the oldest entries past the count, then past the
    /// size (the history's share of the log's pages, the history's and the rejections'; emptied
    /// pages are freed, so a few rounds settle it).
    func trimHistory(_ txn: Transaction) throws(StoreError) {
        let retention = self.configuration.retention
        let excess = try self.historyCount(txn) - retention.count
        if excess > 0 { try self.dropOldestHistory(excess, txn) }
        for _ in 0..<8 {
            let bytes = try self.historyBytes(txn)
            guard bytes > retention.bytes else { return }
            let entries = try self.historyCount(txn)
            guard entries > 0 else { return }
            // As many as the excess takes at the average entry's size, and a sixty-fourth more.
            let perEntry = max(1, bytes / entries)
            try self.dropOldestHistory((bytes - retention.bytes) / perEntry + entries / 64 + 1, txn)
        }
    }

    /// Notifications in the log and not in a queue, and rejected requests.
    private func historyCount(_ txn: Transaction) throws(StoreError) -> Int {
        let environment = self.environment
        return try txn.count(environment.log) - txn.count(environment.queue) + txn.count(environment.rejections)
    }

    /// The bytes the history takes: its share of the log's pages, and the history's and the rejections' own.
    private func historyBytes(_ txn: Transaction) throws(StoreError) -> Int {
        let environment = self.environment
        let logged = try txn.count(environment.log)
        let left = logged - (try txn.count(environment.queue))
        let logShare = logged == 0 ? 0 : try txn.bytesInUse(environment.log) / logged * left
        return try logShare + txn.bytesInUse(environment.history) + txn.bytesInUse(environment.rejections)
    }

    /// Drops history that entered it before `now - age` (when ``Retention/age`` is set); with the sweep.
    func trimHistory(olderThan now: Int64, _ txn: Transaction) throws(StoreError) -> Int {
        guard let age = self.configuration.retention.age else { return 0 }
        let cutoff = now - Int64(age.components.seconds) * 1000 - age.components.attoseconds / 1_000_000_000_000_000
        let oldest = try self.oldestHistory(Self.sweepBatchLimit, txn).prefix { $0.at < cutoff }
        return try self.forget(oldest, txn)
    }

    /// Deletes the `count` oldest history entries.
    private func dropOldestHistory(_ count: Int, _ txn: Transaction) throws(StoreError) {
        _ = try self.forget(try self.oldestHistory(count, txn)[...], txn)
    }

    /// Deletes history entries, and tells the journal which; returns how many the store still held
    /// (a notification deleted by hand left its history entry behind, which goes now uncounted).
    private func forget(_ items: ArraySlice<HistoryItem>, _ txn: Transaction) throws(StoreError) -> Int {
        guard !items.isEmpty else { return 0 }
        var sequences: [UInt64] = []
        var rejections: [String] = []
        for item in items {
            try txn.delete(item.dbi, item.key)
            if let sequence = item.sequence {
                if try self.forgetRecord(sequence: sequence, txn) { sequences.append(sequence) }
            } else {
                rejections.append(item.key.withUnsafeBytes { RejectionKey(bytes: $0).id })
            }
        }
        self.publish(.forgotten(sequences: sequences, rejections: rejections))
        return sequences.count + rejections.count
    }

    /// The `count` oldest history entries of both databases, oldest first: a notification's time
    /// is when it left its queue, a rejection's when it was received.
    private func oldestHistory(_ count: Int, _ txn: Transaction) throws(StoreError) -> [HistoryItem] {
        var logged: [HistoryItem] = []
        try txn.scan(self.environment.history) { key, value throws(StoreError) in
            let entry = try HistoryEntry(value)
            logged.append(HistoryItem(dbi: self.environment.history, key: Array(key), sequence: entry.sequence, at: entry.at))
            return logged.count < count
        }
        var refused: [HistoryItem] = []
        try txn.scan(self.environment.rejections) { key, _ in
            refused.append(
                HistoryItem(
                    dbi: self.environment.rejections, key: Array(key), sequence: nil, at: RejectionKey(bytes: key).receivedAt))
            return refused.count < count
        }
        // Both are in their own order already: merge them, keeping the first `count`.
        var merged: [HistoryItem] = []
        merged.reserveCapacity(min(count, logged.count + refused.count))
        var (l, r) = (logged[...], refused[...])
        while merged.count < count, let next = Self.older(l.first, r.first) {
            merged.append(next)
            if next.sequence != nil { l = l.dropFirst() } else { r = r.dropFirst() }
        }
        return merged
    }

    private static func older(_ a: HistoryItem?, _ b: HistoryItem?) -> HistoryItem? {
        guard let a else { return b }
        guard let b else { return a }
        return b.at < a.at ? b : a
    }
}

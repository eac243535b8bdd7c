import APNsCore
import CLMDB

/// Keeping the history within `--retain` (``Retention``): the log of notifications that left
/// their queues and the rejected requests, the oldest first by when each entered the history
/// (left its queue, or was refused). Queued notifications are not history and never go here.
extension StoreWriter {
    /// After a transaction that added history: the oldest entries past the count, then past the
    /// size (the pages of both databases; emptied pages are freed, so a few rounds settle it).
    func trimHistory(_ txn: Transaction) throws(StoreError) {
        let retention = self.configuration.retention
        let (log, rejections) = (self.environment.log, self.environment.rejections)
        let excess = try txn.count(log) + txn.count(rejections) - retention.count
        if excess > 0 { try self.dropOldestHistory(excess, txn) }
        for _ in 0..<8 {
            let bytes = try txn.bytesInUse(log) + txn.bytesInUse(rejections)
            guard bytes > retention.bytes else { return }
            let entries = try txn.count(log) + txn.count(rejections)
            guard entries > 0 else { return }
            // As many as the excess takes at the average entry's size, and a sixty-fourth more.
            let perEntry = max(1, bytes / entries)
            try self.dropOldestHistory((bytes - retention.bytes) / perEntry + entries / 64 + 1, txn)
        }
    }

    /// Drops history that entered it before `now - age` (when ``Retention/age`` is set); with the sweep.
    func trimHistory(olderThan now: Int64, _ txn: Transaction) throws(StoreError) -> Int {
        guard let age = self.configuration.retention.age else { return 0 }
        let cutoff = now - Int64(age.components.seconds) * 1000 - age.components.attoseconds / 1_000_000_000_000_000
        let oldest = try self.oldestHistory(Self.sweepBatchLimit, txn).prefix { $0.at < cutoff }
        try self.forget(oldest, txn)
        return oldest.count
    }

    /// Deletes the `count` oldest history entries.
    private func dropOldestHistory(_ count: Int, _ txn: Transaction) throws(StoreError) {
        try self.forget(try self.oldestHistory(count, txn)[...], txn)
    }

    /// Deletes history entries, and tells the journal which.
    private func forget(_ entries: ArraySlice<(dbi: MDB_dbi, key: [UInt8], at: Int64)>, _ txn: Transaction) throws(StoreError) {
        guard !entries.isEmpty else { return }
        var sequences: [UInt64] = []
        var rejections: [String] = []
        for entry in entries {
            try txn.delete(entry.dbi, entry.key)
            if entry.dbi == self.environment.log {
                sequences.append(entry.key.withUnsafeBytes { $0.readBigEndianUInt64(at: 0) })
            } else {
                rejections.append(entry.key.withUnsafeBytes { RejectionKey(bytes: $0).id })
            }
        }
        self.publish(.forgotten(sequences: sequences, rejections: rejections))
    }

    /// The `count` oldest history entries of both databases, oldest first: a log entry's time
    /// is when it left its queue, a rejection's when it was received.
    private func oldestHistory(_ count: Int, _ txn: Transaction) throws(StoreError) -> [(dbi: MDB_dbi, key: [UInt8], at: Int64)] {
        var logged: [(dbi: MDB_dbi, key: [UInt8], at: Int64)] = []
        try txn.scan(self.environment.log) { key, value in
            guard value.count >= 9 else { return true }
            logged.append((self.environment.log, Array(key), Int64(bitPattern: value.readBigEndianUInt64(at: 1))))
            return logged.count < count
        }
        var refused: [(dbi: MDB_dbi, key: [UInt8], at: Int64)] = []
        try txn.scan(self.environment.rejections) { key, _ in
            refused.append((self.environment.rejections, Array(key), RejectionKey(bytes: key).receivedAt))
            return refused.count < count
        }
        // Both are in their own order already: merge them, keeping the first `count`.
        var merged: [(dbi: MDB_dbi, key: [UInt8], at: Int64)] = []
        merged.reserveCapacity(min(count, logged.count + refused.count))
        var (l, r) = (logged[...], refused[...])
        while merged.count < count, let next = Self.older(l.first, r.first) {
            merged.append(next)
            if next.dbi == self.environment.log { l = l.dropFirst() } else { r = r.dropFirst() }
        }
        return merged
    }

    private static func older(
        _ a: (dbi: MDB_dbi, key: [UInt8], at: Int64)?, _ b: (dbi: MDB_dbi, key: [UInt8], at: Int64)?
    ) -> (dbi: MDB_dbi, key: [UInt8], at: Int64)? {
        guard let a else { return b }
        guard let b else { return a }
        return b.at < a.at ? b : a
    }
}

import APNsCore
import Foundation

/// Reading back the history the journal keeps only an index of: every notification the store
/// holds (queued or logged) and every rejected request, by key, and all of it in order at start.
extension NotificationStore {
    /// The notifications stored under these keys, in order, from the log; nil for one the store no longer holds.
    public func notifications(at keys: [StoredNotificationKey]) throws(StoreError) -> [APNsCore.Notification?] {
        try self.read { txn throws(StoreError) in
            var found: [APNsCore.Notification?] = []
            found.reserveCapacity(keys.count)
            for key in keys {
                found.append(
                    try txn.withValue(self.environment.log, key: StoreKeys.logKey(sequence: key.sequence)) {
                        value throws(StoreError) in try LogValue.decode(value)
                    })
            }
            return found
        }
    }

    /// The records of the rejected requests kept under these keys, in order; nil for one no longer kept.
    public func rejectionRecords(at keys: [RejectionKey]) throws(StoreError) -> [[UInt8]?] {
        try self.read { txn throws(StoreError) in
            var found: [[UInt8]?] = []
            found.reserveCapacity(keys.count)
            for key in keys { found.append(try txn.get(self.environment.rejections, key.bytes)) }
            return found
        }
    }

    /// What the phone made of stored notifications, by sequence, as ``StoreOperation/recordPhone(sequence:record:)`` kept it.
    public func phoneRecords() throws(StoreError) -> [UInt64: [UInt8]] {
        try self.read { txn throws(StoreError) in
            var records: [UInt64: [UInt8]] = [:]
            try txn.scan(self.environment.phone) { key, value throws(StoreError) in
                guard key.count == 8 else { throw .corruptRecord("phone key") }
                records[key.readBigEndianUInt64(at: 0)] = Array(value)
                return true
            }
            return records
        }
    }

    /// How many notifications (queued and logged) and rejected requests the store holds.
    public func historyCount() throws(StoreError) -> (notifications: Int, rejections: Int) {
        try self.read { txn throws(StoreError) in
            (try txn.count(self.environment.log), try txn.count(self.environment.rejections))
        }
    }

    /// Every notification the store holds, queued (`status` and `at` nil) and logged, oldest
    /// first by sequence (the order they were accepted in), one at a time: the journal's history
    /// at start, without holding them all. The log is in that order already; each one's status
    /// is the history's.
    public func visitNotifications(
        _ body: (_ sequence: UInt64, _ status: LogStatus?, _ at: Int64?, _ notification: APNsCore.Notification) -> Void
    ) throws(StoreError) {
        try self.read { txn throws(StoreError) in
            // The history in the log's order (each notification enters it once, when it leaves
            // its queue), looked up as the log is read.
            var left: [HistoryEntry] = []
            try txn.scan(self.environment.history) { _, value throws(StoreError) in
                left.append(try HistoryEntry(value))
                return true
            }
            left.sort { $0.sequence < $1.sequence }
            var next = left[...]
            try txn.scan(self.environment.log) { key, value throws(StoreError) in
                guard key.count == 8 else { throw .corruptRecord("log key") }
                let sequence = key.readBigEndianUInt64(at: 0)
                var entry: HistoryEntry?
                while let first = next.first, first.sequence <= sequence {
                    next = next.dropFirst()
                    if first.sequence == sequence { entry = first }
                }
                var header: (status: LogStatus, at: Int64)?
                if let entry { header = (entry.status, entry.at) } else { header = try LogValue.header(of: value) }
                body(sequence, header?.status, header?.at, try LogValue.decode(value))
                return true
            }
        }
        self.releaseMappedPages()
    }

    /// After a pass over every record: ``LMDBEnvironment/releaseMappedPages(dataFile:)``.
    func releaseMappedPages() {
        self.environment.releaseMappedPages(
            dataFile: (self.configuration.directory as NSString).appendingPathComponent("data.mdb"))
    }
}

import Foundation
import APNsCore

/// Reading back the history the journal keeps only an index of: every notification the store
/// holds (queued or logged) and every rejected request, by key, and all of it in order at start.
extension NotificationStore {
    /// The notifications stored under these keys, in order: from the log once they left their
    /// queue, from the queue while they wait; nil for one the store no longer holds.
    public func notifications(at keys: [StoredNotificationKey]) throws(StoreError) -> [APNsCore.Notification?] {
        try self.read { txn throws(StoreError) in
            var found: [APNsCore.Notification?] = []
            found.reserveCapacity(keys.count)
            for key in keys {
                if let value = try txn.get(self.environment.log, StoreKeys.logKey(sequence: key.sequence)), value.count > 9 {
                    let decoded = value.withUnsafeBytes { raw in
                        Result { () throws(StoreError) in try NotificationCodec.decode(UnsafeRawBufferPointer(rebasing: raw[9...])) }
                    }
                    found.append(try decoded.get())
                } else if let record = try txn.get(self.environment.queue, StoreKeys.queueKey(key.token, sequence: key.sequence)) {
                    found.append(try NotificationCodec.decode(record))
                } else {
                    found.append(nil)
                }
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

    /// How many notifications (queued and logged) and rejected requests the store holds.
    public func historyCount() throws(StoreError) -> (notifications: Int, rejections: Int) {
        try self.read { txn throws(StoreError) in
            (try txn.count(self.environment.queue) + txn.count(self.environment.log), try txn.count(self.environment.rejections))
        }
    }

    /// Every notification the store holds, queued (`status` and `at` nil) and logged, oldest
    /// first by sequence (the order they were accepted in), one at a time: the journal's history
    /// at start, without holding them all.
    public func visitNotifications(
        _ body: (_ sequence: UInt64, _ status: LogStatus?, _ at: Int64?, _ notification: APNsCore.Notification) -> Void
    ) throws(StoreError) {
        try self.read { txn throws(StoreError) in
            // Queues are in token order: their records, sorted by sequence, are merged with the
            // log's. The records stay where LMDB mapped them (valid while this read lasts).
            var queued: [(sequence: UInt64, record: UnsafeRawBufferPointer)] = []
            try txn.scan(self.environment.queue) { key, record in
                queued.append((StoreKeys.sequence(ofQueueKey: key), record))
                return true
            }
            queued.sort { $0.sequence < $1.sequence }
            var next = queued[...]
            func visitQueued(before limit: UInt64) throws(StoreError) {
                while let first = next.first, first.sequence < limit {
                    next = next.dropFirst()
                    body(first.sequence, nil, nil, try NotificationCodec.decode(first.record))
                }
            }
            try txn.scan(self.environment.log) { key, value throws(StoreError) in
                guard key.count == 8, value.count > 9, let status = LogStatus(rawValue: value[0]) else {
                    throw .corruptRecord("log entry")
                }
                let sequence = key.readBigEndianUInt64(at: 0)
                try visitQueued(before: sequence)
                body(
                    sequence, status, Int64(bitPattern: value.readBigEndianUInt64(at: 1)),
                    try NotificationCodec.decode(UnsafeRawBufferPointer(rebasing: value[9...])))
                return true
            }
            try visitQueued(before: .max)
        }
        self.releaseMappedPages()
    }

    /// After a pass over every record: ``LMDBEnvironment/releaseMappedPages(dataFile:)``.
    func releaseMappedPages() {
        self.environment.releaseMappedPages(dataFile: (self.configuration.directory as NSString).appendingPathComponent("data.mdb"))
    }
}

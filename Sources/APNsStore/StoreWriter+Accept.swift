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

        // APNs stores one notification per app while the device is offline: a connected device
        // gets each as it comes (what its queue holds then is on its way to it), so only a
        // collapse id replaces there.
        let latest = self.configuration.storagePolicy == .latest && !connected
        var replaced = 0
        if notification.collapseID != nil || latest {
            replaced = try self.replaceOlder(than: notification, latest: latest, txn, nowMillis: nowMillis)
        }

        try self.putQueued(
            notification, sequence: assigned,
            expiration: notification.effectiveExpiration(maximumStorageSeconds: maximumStorage), txn, nowMillis: nowMillis)
        // One change for the new notification and those it replaced: under `latest` a device's
        // queue stays at one, and its length is neither forgotten at zero nor counted again. A
        // length that does not change is not looked up unless the policy needs it (a token's
        // lookup is a probe of a table of every token, for every notification an offline device
        // gets under the default policy).
        let delta = 1 - replaced
        let all = self.configuration.storagePolicy == .all
        let queued = delta != 0 || all ? try self.adjustQueueLength(notification.token, by: delta, txn) : nil
        self.publish(.accepted(notification, sequence: assigned, at: nowMillis, status: nil, connected: connected))

        if all, let queued {
            let excess = queued - self.configuration.maximumQueuedPerDevice
            if excess > 0 { try self.dropOldest(excess, of: notification.token, txn, nowMillis: nowMillis) }
        }
        return .queued(sequence: assigned)
    }

    /// Writes a queued notification: its record into the log, its keys into the queue and the
    /// expiry and unique-id indexes.
    private func putQueued(
        _ notification: Notification, sequence assigned: UInt64, expiration: Int64, _ txn: Transaction, nowMillis: Int64
    ) throws(StoreError) {
        // The record is encoded once, straight into the log's last page (appended: full pages, no
        // splits); the queue and the indexes hold only keys, laid out on the stack.
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
    }

    /// Why APNs would refuse a push to this token, if the store knows of a reason.
    private func tokenRefusal(for notification: Notification, _ txn: Transaction) throws(StoreError) -> StoreOutcome? {
        let record = try txn.get(self.environment.tokens, notification.token.bytes).map { bytes throws(StoreError) in
            try TokenRecordCodec.decode(token: notification.token, bytes)
        }
        return self.configuration.tokenPolicy.refusal(
            for: record, topic: notification.topic, environment: notification.environment)
    }

    /// Removes queued notifications the new one replaces: same topic and collapse id, or, with
    /// `latest` (the policy, for an offline device), every older one of the same topic; returns how
    /// many. Each queued record's topic and collapse id are compared where the log keeps them, and
    /// of one replaced only what its removal needs is read (its record stays in the log).
    private func replaceOlder(
        than notification: Notification, latest: Bool, _ txn: Transaction, nowMillis: Int64
    ) throws(StoreError) -> Int {
        let topic = notification.topic
        let collapseID = notification.collapseID
        var replaced: [(key: [UInt8], fields: NotificationCodec.QueuedFields)] = []
        for key in try self.queueKeys(notification.token, txn) {
            // nil: no record in the log (corrupt); .some(nil): a record the new one does not replace.
            let logged = try txn.withValue(self.environment.log, key: StoreKeys.logKey(ofQueueKey: key)) {
                value throws(StoreError) -> NotificationCodec.QueuedFields? in
                let queued = try NotificationCodec.queued(of: LogValue.record(of: value))
                guard Self.same(queued.topic, topic) else { return nil }
                guard latest || (collapseID != nil && Self.same(queued.collapseID, collapseID)) else { return nil }
                return try queued.fields()
            }
            guard let logged else { throw .corruptRecord("queued notification missing from the log") }
            guard let older = logged else { continue }
            replaced.append((key, older))
        }
        for entry in replaced {
            try self.removeReplaced(entry.key, entry.fields, of: notification.token, txn, nowMillis: nowMillis)
        }
        return replaced.count
    }

    /// Whether a record's field (nil: absent) is `string`, compared as UTF-8 in place.
    private static func same(_ field: UnsafeRawBufferPointer?, _ string: String?) -> Bool {
        guard let field else { return string == nil }
        guard var string else { return false }
        return string.withUTF8 { field.elementsEqual($0) }
    }

    /// Drops the `count` oldest notifications of a token's queue.
    private func dropOldest(_ count: Int, of token: DeviceToken, _ txn: Transaction, nowMillis: Int64) throws(StoreError) {
        for entry in try self.queueEntries(token, txn, limit: count) {
            try self.removeQueued(entry.key, record: entry.record, status: .dropped, txn, nowMillis: nowMillis)
        }
    }
}

import APNsCore
import APNsInspection
import APNsStore

/// The journal's archive read back from the store: notifications from their queue or the log,
/// rejected requests from where ``Inspection/keepRequests(_:)`` put them.
struct StoreArchiveSource: JournalArchiveSource {
    let store: NotificationStore

    /// The store's keys for the journal's: notifications' and rejected requests', each in order.
    static func storeKeys(_ keys: [JournalRecordKey]) -> (notifications: [StoredNotificationKey], rejections: [RejectionKey]) {
        var notificationKeys: [StoredNotificationKey] = []
        var rejectionKeys: [RejectionKey] = []
        for key in keys {
            switch key {
            case .notification(let token, let sequence):
                notificationKeys.append(StoredNotificationKey(token: token, sequence: sequence))
            case .rejection(let receivedAt, let id): rejectionKeys.append(RejectionKey(receivedAt: receivedAt, id: id))
            }
        }
        return (notificationKeys, rejectionKeys)
    }

    func records(_ keys: [JournalRecordKey]) -> [JournalRecord?] {
        let (notificationKeys, rejectionKeys) = Self.storeKeys(keys)
        // A store that closed or failed reads as one that no longer holds them.
        var notifications = ((try? self.store.notifications(at: notificationKeys)) ?? []).makeIterator()
        var rejections = ((try? self.store.rejectionRecords(at: rejectionKeys)) ?? []).makeIterator()
        return keys.map { key -> JournalRecord? in
            switch key {
            case .notification:
                return (notifications.next() ?? nil).map(JournalRecord.notification)
            case .rejection:
                // A broadcast's entry is the archive's own, whole: only a refusal is read back.
                guard let record = rejections.next() ?? nil,
                    case .rejected(let push, let fault) = Inspection.keptRequests(from: [record]).first
                else { return nil }
                return .rejection(push, fault)
            }
        }
    }

    func sequences(containing text: [UInt8]) -> Set<UInt64>? {
        try? self.store.sequences(containing: text)
    }
}

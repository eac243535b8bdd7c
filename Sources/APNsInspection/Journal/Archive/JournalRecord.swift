import APNsCore

/// What the store read back for a ``JournalRecordKey``.
public enum JournalRecord: Sendable {
    case notification(Notification)
    case rejection(RejectedPush, FaultMark?)
}

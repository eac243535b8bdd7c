import APNsCore

/// Where the store keeps what the journal's archive only indexes.
public enum JournalRecordKey: Sendable, Hashable {
    /// An accepted notification: its token's queue while it waits, the log once it left.
    case notification(DeviceToken, sequence: UInt64)
    /// A rejected request, a channel request or a broadcast: when it arrived and its journal id.
    case rejection(receivedAt: Int64, id: String)
}

import APNsCore

/// One change for the writer to make; many are committed together.
public enum StoreOperation: Sendable {
    /// A notification the provider API accepted.
    case accept(Notification)
    /// Move every notification whose expiration has passed out of the queues into the log.
    case sweepExpired
}

/// What an operation did, once its transaction has committed.
public enum StoreOutcome: Sendable, Equatable {
    /// Queued for its device under this sequence number.
    case queued(sequence: UInt64)
    /// Not stored: its expiration was 0 or already past and no device took it (recorded in the log).
    case discarded
    /// This many notifications had expired and were moved to the log.
    case swept(count: Int)
}

/// Counters of the writer's work since the store opened.
public struct StoreStatistics: Sendable, Equatable {
    /// Write transactions committed.
    public var commits = 0
    /// Operations those transactions held.
    public var operations = 0
    /// Transactions that failed (nothing of them was written).
    public var failedCommits = 0
}

/// A notification waiting in a device queue.
public struct QueuedNotification: Sendable, Equatable {
    /// Acceptance order across the whole store.
    public var sequence: UInt64
    public var notification: Notification
}

/// Why a notification left without being delivered.
public enum LogStatus: UInt8, Sendable, CaseIterable, CustomStringConvertible {
    case expired = 1
    case discarded = 2

    public var description: String {
        switch self {
        case .expired: return "expired"
        case .discarded: return "discarded"
        }
    }
}

/// A notification that left without being delivered, kept for inspection.
public struct LoggedNotification: Sendable, Equatable {
    public var sequence: UInt64
    public var status: LogStatus
    /// Milliseconds since the UNIX epoch when it left.
    public var at: Int64
    public var notification: Notification
}

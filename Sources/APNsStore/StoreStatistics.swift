import APNsCore
import APNsDevice

/// Counters of the writer's work since the store opened.
public struct StoreStatistics: Sendable, Equatable {
    /// Write transactions committed.
    public var commits = 0
    /// Operations those transactions held.
    public var operations = 0
    /// Transactions that failed (nothing of them was written).
    public var failedCommits = 0
    /// Queued notifications dropped, oldest first, because the map was full.
    public var droppedForRoom = 0
}

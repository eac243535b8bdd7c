extension StoreWriter {
    /// What a commit reads and changes, under ``commitState``.
    struct CommitState {
        var nextSequence: UInt64
        /// Operations an outage refused since its last line in the log, and when the next may be written.
        var refusedSinceLine = 0
        /// Whether ``StoreWriter/outage`` is set (read here without its lock).
        var inOutage = false
        /// Until when, in an outage, batches are refused without a transaction (``StoreOutage/probeInterval``).
        var nextProbe = ContinuousClock.now
        /// Whether the outage under way has had its first line in the log.
        var outageLogged = false
        /// An outage that ended before the log could say so (within an interval of its last line).
        var unloggedRecovery: StoreOutage?
        var nextOutageLine = ContinuousClock.now
        /// How many times the batch being committed was retried after ``makeRoom(attempt:)``.
        var roomAttempt = 0
        /// When ``keepWithinBudget(_:)`` last looked at the map.
        var lastBudgetCheck = ContinuousClock.now
        /// Whether the map was found near its budget: then it is looked at after every commit.
        var nearBudget = false
        /// The bytes in use past which the oldest queued notifications are dropped before the map
        /// is full (nil until the first look: ``StoreWriter/budgetPercent`` of the map). Lowered
        /// when the map fills below it (``StoreWriter/lowerBudget(_:)``).
        var budgetBytes: Int?
    }
}

import APNsCore
import Foundation

/// What the writer does when the map is full: APNs never refuses a provider because a device's
/// backlog is long; it keeps what its storage policy keeps and drops the rest. So a full store
/// drops its oldest queued notifications (each one's `Dropped - Storage Full` reaches the journal
/// and the Console's counts) and the batch is written again; only a store that still has no room
/// after that (a map full of something else) answers 503.
extension StoreWriter {
    /// The share of the queued notifications dropped the first time a batch does not fit (a
    /// twentieth: the next seconds of a load test fit, most of the backlog stays); each further
    /// try for the same batch drops twice as many.
    static let roomShare = 20
    /// How many times a batch is tried again after dropping, before it is refused (503).
    static let roomAttempts = 8
    /// How many times a batch that found nothing to drop is tried again once the free pages
    /// older snapshots pinned are writable (``freeRoom(droppedIn:)``), before it is refused.
    static let unpinAttempts = 2
    /// The share of the map (in percent) past which the oldest queued notifications are dropped
    /// before the map is full: deleting needs free pages too (LMDB copies each page it changes),
    /// and in a map with none left even the drop failed with MDB_MAP_FULL.
    static let budgetPercent = 85
    /// How long, at most, the writer waits for readers of snapshots older than a drop.
    static let readerWait = Duration.seconds(5)
    /// How often, at most, the writer looks at how full the map is.
    static let budgetCheckInterval = Duration.milliseconds(200)

    /// The share of the map (in percent) past which it is looked at after every commit, not only
    /// every ``budgetCheckInterval``: a few large notifications fill the rest of a small map
    /// faster than that, and a map with no free page left cannot even drop (a delete copies pages).
    static let nearBudgetPercent = 70

    /// After a commit: when the map holds more than its budget, drops the oldest queued
    /// notifications (a twentieth, then more, until it is within).
    func keepWithinBudget(_ state: inout CommitState) {
        let now = ContinuousClock.now
        guard state.nearBudget || now - state.lastBudgetCheck >= Self.budgetCheckInterval else { return }
        state.lastBudgetCheck = now
        let budget = self.budget(state)
        state.budgetBytes = budget
        // Until it is within the budget (a few rounds, each dropping more), so that it stays as
        // the answers leave it until more arrives.
        for round in 0..<4 {
            guard let used = self.usedBytes() else { return }
            if round == 0 { state.nearBudget = used > budget / Self.budgetPercent * Self.nearBudgetPercent }
            guard used > budget, self.makeRoom(attempt: round, why: "store past its budget of --map-size").dropped > 0 else {
                return
            }
        }
    }

    /// The bytes in use past which the oldest queued notifications go: ``budgetPercent`` of the
    /// map until ``lowerBudget(_:)`` brings it down.
    private func budget(_ state: CommitState) -> Int {
        state.budgetBytes ?? self.environment.mapSize / 100 * Self.budgetPercent
    }

    /// What the map's databases and free list take now (``LMDBEnvironment/bytesInUse(_:)``).
    private func usedBytes() -> Int? {
        try? self.environment.read { txn throws(StoreError) in try self.environment.bytesInUse(txn) }
    }

    /// The map filled while what it holds was under the budget: its free pages are too scattered
    /// for large records (an overflow record needs pages in a row) or still in a reader's view.
    /// The budget comes down to a tenth below what is in use now, so that from now on the oldest
    /// go before the map is full, while a drop still finds free pages to write into.
    func lowerBudget(_ state: inout CommitState) {
        let budget = self.budget(state)
        guard let used = self.usedBytes(), used < budget else { return }
        // Not below half the map: a map that fills at any use has scattered pages, not data, to blame.
        let lowered = max(self.environment.mapSize / 2, used / 10 * 9)
        guard lowered < budget else { return }
        state.budgetBytes = lowered
        state.nearBudget = true
        self.logger.info(
            "store full below its budget: dropping the oldest from \(lowered) bytes in use on",
            metadata: ["store.directory": "\(self.configuration.directory)"])
    }

    /// Before a full map's batch is tried again: drops the oldest queued notifications, once
    /// readers of older snapshots are done (dropping needs free pages too, and they keep them
    /// from use); a drop the full map had no room for is tried again once, a single notification.
    func roomForRetry(attempt: Int) -> (dropped: Int, transaction: UInt64) {
        self.awaitReaders(through: max(self.environment.lastTransaction(), 1) - 1)
        let room = self.makeRoom(attempt: attempt)
        guard room.dropped == 0 else { return room }
        self.awaitReaders(through: self.environment.lastTransaction())
        return self.makeRoom(attempt: -1)
    }

    /// Drops the oldest queued notifications (by unique id, which is time-ordered) in a
    /// transaction of its own (attempt -1: exactly one); returns how many, and that transaction's id. Their records stay out
    /// of the log, which a full map may not have room for; the journal hears of each.
    @discardableResult
    func makeRoom(attempt: Int, why: String = "store full") -> (dropped: Int, transaction: UInt64) {
        let now = self.configuration.clock()
        let result = Result { () throws(StoreError) -> (dropped: Int, transaction: UInt64) in
            try self.environment.write { txn throws(StoreError) -> (dropped: Int, transaction: UInt64) in
                let queued = try txn.count(self.environment.unique)
                let count = attempt < 0 ? min(queued, 1) : min(queued, max(1, (queued << attempt) / Self.roomShare))
                var oldest: [[UInt8]] = []
                oldest.reserveCapacity(count)
                try txn.scan(self.environment.unique) { _, queueKey in
                    oldest.append(Array(queueKey))
                    return oldest.count < count
                }
                var dropped: [UInt64] = []
                for queueKey in oldest {
                    guard let record = try self.queuedRecord(queueKey, txn) else { continue }
                    try self.removeQueued(queueKey, record: record, status: nil, txn, nowMillis: now)
                    let notification = try NotificationCodec.decode(record)
                    let sequence = queueKey.withUnsafeBytes { StoreKeys.sequence(ofQueueKey: $0) }
                    self.publish(.left(.whole(notification), sequence: sequence, status: .dropped, at: now))
                    dropped.append(sequence)
                }
                if !dropped.isEmpty { self.publish(.unkept(sequences: dropped)) }
                return (dropped.count, txn.id)
            }
        }
        switch result {
        case .success(let (dropped, transaction)):
            self.statistics.withLock { $0.droppedForRoom += dropped }
            if dropped > 0 { self.tellObserver(operations: 0, duration: .zero) }
            self.logger.notice(
                "\(why): dropped the \(dropped) oldest queued notifications (Dropped - Storage Full) to take new ones; --map-size sets the room",
                metadata: ["store.directory": "\(self.configuration.directory)"])
            return (dropped, transaction)
        case .failure(let error):
            self.discardChanges()
            self.logger.warning("\(why), and dropping the oldest notifications failed", metadata: ["store.error": "\(error)"])
            return (0, 0)
        }
    }

    /// Makes the pages transaction `transaction` freed writable again. LMDB reuses a page freed
    /// by transaction T only when T is older than every snapshot in use, the writer's own
    /// predecessor included (mdb.c: mdb_page_alloc stops at `oldest <= last`, and
    /// mdb_find_oldest starts from the writer's id - 1). So one small write moves the store on,
    /// then the writer waits for readers that started before it.
    func freeRoom(droppedIn transaction: UInt64) {
        var mark: [UInt8] = []
        mark.appendBigEndian(transaction)
        _ = try? self.environment.write { txn throws(StoreError) in try txn.put(self.environment.meta, StoreKeys.roomMark, mark) }
        self.awaitReaders(through: transaction)
    }

    /// Waits (at most ``readerWait``) until no read transaction sees transaction `transaction`'s
    /// snapshot or an older one: until then, nothing freed since can be written into, and a full
    /// map stays full however much is dropped.
    func awaitReaders(through transaction: UInt64) {
        let deadline = ContinuousClock.now + Self.readerWait
        while let oldest = self.environment.oldestReader(), oldest <= transaction, ContinuousClock.now < deadline {
            usleep(200)
        }
    }
}

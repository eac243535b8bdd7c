import APNsCore
import Dispatch
import Foundation
import Logging
import Synchronization

/// The store's one writer: a dedicated thread that commits every operation submitted since its
/// last commit in a single LMDB write transaction (group commit), then completes them all.
///
/// In relaxed mode, a submission that may (the accept path's) and finds the writer asleep is
/// committed at once on the submitter's own thread instead, with anything else waiting: waking a
/// sleeping thread and being woken back cost more than the commit itself. One commit runs at a
/// time either way (``commitState``). Callers never wait on it while holding anything;
/// completions run on the committing thread and must be quick (hand off to an event loop).
final class StoreWriter: Sendable {
    typealias Completion = @Sendable (Result<[StoreOutcome], StoreError>) -> Void

    struct Submission: Sendable {
        var operations: [StoreOperation]
        var completion: Completion

        /// The writer's own periodic sweep.
        var isSweep: Bool {
            guard self.operations.count == 1, case .sweepExpired = self.operations[0] else { return false }
            return true
        }
    }

    private struct Inbox {
        var submissions: [Submission] = []
        var sleeping = false
        var closing = false
        /// A submitter is committing on its own thread while the writer sleeps.
        var committingInline = false
    }

    let environment: LMDBEnvironment
    let configuration: StoreConfiguration
    let logger: Logger
    private let inbox = Mutex(Inbox())
    /// What commits share; held by whichever thread commits (the writer, or a submitter inline).
    private let commitState: Mutex<CommitState>
    /// Queue lengths per token, for the per-device cap. Only the writer changes queues, so it keeps
    /// them in memory rather than writing a count beside every notification (one more dirty page
    /// per notification, which cost a third of the throughput). Filled by counting a queue the first
    /// time it is touched; emptied when a commit fails, since the counts may include its changes.
    /// Inside a commit only (the lock is never contended).
    let queueLengths = Mutex<[DeviceToken: Int]>([:])
    /// The number the next history entry gets (``appendHistory(_:_:)``). Inside a commit only.
    let historyNumbers: Mutex<UInt64>
    /// Commit counters, read by ``NotificationStore/statistics``.
    let statistics = Mutex(StoreStatistics())
    /// The spell of failed commits under way, if any (``NotificationStore/outage``).
    let outage = Mutex<StoreOutage?>(nil)
    /// Told of every commit; see ``StoreCommit``.
    private let observer: (@Sendable (StoreCommit) -> Void)?
    /// Relaxed mode: how far the disk had room for the map (``MapRoom``).
    private let room: MapRoom?
    /// What the transaction being written did, for the observer. Inside a commit only.
    let changes = Mutex<[StoreChange]>([])
    private let wakeup = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)

    init(
        environment: LMDBEnvironment,
        configuration: StoreConfiguration,
        logger: Logger,
        room: MapRoom? = nil,
        observer: (@Sendable (StoreCommit) -> Void)?
    ) throws(StoreError) {
        self.environment = environment
        self.configuration = configuration
        self.logger = logger
        self.room = room
        self.observer = observer
        let first = try environment.read { txn throws(StoreError) -> UInt64 in
            guard let bytes = try txn.get(environment.meta, StoreKeys.nextSequence), bytes.count == 8 else { return 1 }
            return bytes.withUnsafeBytes { $0.readBigEndianUInt64(at: 0) }
        }
        self.commitState = Mutex(CommitState(nextSequence: first))
        self.historyNumbers = Mutex(try Self.nextHistoryNumber(environment))
        let thread = Thread { [self] in
            self.run()
            self.finished.signal()
        }
        thread.name = "apns-store-writer"
        thread.start()
    }

    /// Queues operations for the next commit; `completion` runs after it, on the writer thread.
    func submit(_ operations: [StoreOperation], commitHereIfIdle: Bool = false, completion: @escaping Completion) {
        let inline = commitHereIfIdle && self.configuration.durability == .relaxed
        let next = self.inbox.withLock { inbox -> Next in
            guard !inbox.closing else { return .closed }
            inbox.submissions.append(Submission(operations: operations, completion: completion))
            if inline && inbox.sleeping && !inbox.committingInline {
                inbox.committingInline = true
                defer { inbox.submissions.removeAll(keepingCapacity: true) }
                return .commit(inbox.submissions)
            }
            // The inline committer wakes the writer when it is done: woken now, the writer would
            // only wait for the commit's lock (a priority-inheriting futex, which spins in the
            // kernel while its holder runs: 2.6% of a load test's CPU).
            if inbox.committingInline { return .queued }
            defer { inbox.sleeping = false }
            return inbox.sleeping ? .wake : .queued
        }
        switch next {
        case .closed: completion(.failure(.closed))
        case .wake: self.wakeup.signal()
        case .queued: break
        case .commit(let batch):
            self.commitState.withLock { self.commit(batch, &$0) }
            // Whatever was submitted meanwhile (a completion's own submission too) wakes the writer.
            let wake = self.inbox.withLock { inbox -> Bool in
                inbox.committingInline = false
                guard inbox.sleeping, !inbox.submissions.isEmpty else { return false }
                inbox.sleeping = false
                return true
            }
            if wake { self.wakeup.signal() }
        }
    }

    private enum Next {
        case closed, wake, queued
        case commit([Submission])
    }

    /// Commits what was already submitted, stops the thread and waits for it.
    func close() {
        let wake = self.inbox.withLock { inbox -> Bool in
            inbox.closing = true
            defer { inbox.sleeping = false }
            return inbox.sleeping
        }
        if wake { self.wakeup.signal() }
        self.finished.wait()
    }

    private func run() {
        let clock = ContinuousClock()
        var nextSweep = clock.now + self.configuration.sweepInterval
        var nextSync = clock.now + self.configuration.relaxedSyncInterval
        var spin = WriterSpin(window: self.configuration.writerSpin)
        while true {
            let looked = clock.now
            let spinning = spin.looking(at: looked)
            let (batch, closing) = self.inbox.withLock { inbox -> ([Submission], Bool) in
                let batch = inbox.submissions
                inbox.submissions.removeAll(keepingCapacity: true)
                if batch.isEmpty && !inbox.closing && !spinning { inbox.sleeping = true }
                return (batch, inbox.closing)
            }
            if batch.isEmpty && !closing && spinning {
                spin.foundNothing(at: looked)
                sched_yield()
                continue
            }
            spin.stopped(found: !batch.isEmpty)
            if !batch.isEmpty {
                self.commitState.withLock { self.commit(batch, &$0) }
            }
            let now = clock.now
            if now >= nextSweep {
                self.commitState.withLock { self.commit([Submission(operations: [.sweepExpired], completion: { _ in })], &$0) }
                nextSweep = now + self.configuration.sweepInterval
            }
            if self.configuration.durability == .relaxed && now >= nextSync {
                // Not while a submitter commits inline: a sync sees only whole transactions.
                self.commitState.withLock { _ in self.syncToDisk() }
                nextSync = now + self.configuration.relaxedSyncInterval
            }
            if closing {
                if batch.isEmpty { break }
                continue
            }
            if batch.isEmpty {
                var deadline = nextSweep
                if self.configuration.durability == .relaxed { deadline = min(deadline, nextSync) }
                let wait = max(.zero, deadline - clock.now)
                let nanoseconds = wait.components.seconds * 1_000_000_000 + wait.components.attoseconds / 1_000_000_000
                let asleep = clock.now
                _ = self.wakeup.wait(timeout: .now() + .nanoseconds(Int(nanoseconds)))
                spin.woke(after: clock.now - asleep)
                self.inbox.withLock { $0.sleeping = false }
            }
        }
        // After any inline commit still running (none starts once closing is set).
        self.commitState.withLock { _ in
            if self.configuration.durability == .relaxed { self.syncToDisk() }
        }
    }

    private func syncToDisk() {
        do {
            try self.environment.sync()
        } catch {
            self.logger.info("store sync failed", metadata: ["store.error": "\(error)"])
        }
    }

    /// Notes what the current transaction did to a notification, when someone observes; writer thread only.
    func publish(_ change: @autoclosure () -> StoreChange) {
        guard self.observer != nil else { return }
        let change = change()
        self.changes.withLock { $0.append(change) }
    }

    /// Applies every operation of `batch` in one transaction, then completes each submission.
    func commit(_ batch: [Submission], _ state: inout CommitState) {
        let started = ContinuousClock.now
        // While the disk cannot be written, a batch is refused at once; one every `probeInterval`
        // tries. (A full map is not a full disk: a smaller batch, or one after a drop, may fit.)
        if state.inOutage, started < state.nextProbe, case .writeFailed(let code)? = self.outage.withLock({ $0?.error }),
            !batch.allSatisfy(\.isSweep)
        {
            return self.failed(batch, .writeFailed(code: code), &state)
        }
        if let room = self.room, room.refuses(batch.lazy.flatMap(\.operations), environment: self.environment) {
            return self.failed(batch, .writeFailed(code: ENOSPC), &state)
        }
        let now = self.configuration.clock()
        var sequence = state.nextSequence
        let result = Result { () throws(StoreError) -> [[StoreOutcome]] in
            try self.environment.write { txn throws(StoreError) -> [[StoreOutcome]] in
                try self.write(batch, txn, nowMillis: now, sequence: &sequence)
            }
        }
        switch result {
        case .success(let outcomes):
            state.nextSequence = sequence
            self.committed(batch, outcomes, duration: ContinuousClock.now - started, &state)
        case .failure(let error) where !error.failsEveryOperation && batch.reduce(0, { $0 + $1.operations.count }) > 1:
            // One operation failed the transaction for everyone: give each its own, so only it fails.
            self.statistics.withLock { $0.failedCommits += 1 }
            self.discardChanges()
            self.logger.info("store commit failed; retrying each operation alone", metadata: ["store.error": "\(error)"])
            self.isolate(batch, &state)
        case .failure(.mapFull) where state.roomAttempt < Self.roomAttempts:
            // A full map drops its oldest queued notifications, then takes the batch again.
            self.statistics.withLock { $0.failedCommits += 1 }
            self.discardChanges()
            let attempt = state.roomAttempt
            state.roomAttempt += 1
            defer { state.roomAttempt = attempt }
            if attempt == 0 { self.lowerBudget(&state) }
            let room = self.roomForRetry(attempt: attempt)
            if room.dropped > 0 {
                self.freeRoom(droppedIn: room.transaction)
                self.commit(batch, &state)
            } else if attempt < Self.unpinAttempts {
                // Nothing to drop, yet the map filled: its free pages are pinned by snapshots
                // (a reader's, or the last transaction's, which the next may not reuse). Once the
                // store has moved on past them and their readers are done, the batch may fit.
                self.freeRoom(droppedIn: self.environment.lastTransaction())
                self.commit(batch, &state)
            } else {
                self.failed(batch, .mapFull(mapSizeBytes: self.environment.mapSize), &state)
            }
        case .failure(let error):
            self.failed(batch, error, &state)
        }
    }

    /// Hands the observer what the transaction just committed did (and forgets it here).
    func tellObserver(operations: Int, duration: Duration) {
        guard let observer = self.observer else { return }
        let changes = self.changes.withLock { changes in
            defer { changes.removeAll(keepingCapacity: true) }
            return changes
        }
        observer(StoreCommit(operations: operations, duration: duration, changes: changes))
    }

    /// After a commit: counts it, tells the observer, then completes every submission.
    private func committed(_ batch: [Submission], _ outcomes: [[StoreOutcome]], duration: Duration, _ state: inout CommitState) {
        let operationCount = outcomes.reduce(0) { $0 + $1.count }
        self.statistics.withLock {
            $0.commits += 1
            $0.operations += operationCount
        }
        self.tellObserver(operations: operationCount, duration: duration)
        // The periodic sweep may commit without writing a page: only a batch that wrote ends an outage.
        if state.inOutage, !batch.allSatisfy(\.isSweep) {
            self.endOutage(&state)
        } else if state.unloggedRecovery != nil {
            self.logRecovery(&state)
        }
        // Before the answers: what a caller reads after its answer is what the store keeps.
        if state.roomAttempt == 0 { self.keepWithinBudget(&state) }
        for (submission, outcome) in zip(batch, outcomes) { submission.completion(.success(outcome)) }
    }
}

import APNsCore
import Dispatch
import Foundation
import Logging
import Synchronization

/// The store's one writer: a dedicated thread that commits every operation submitted since its
/// last commit in a single LMDB write transaction (group commit), then completes them all.
///
/// Callers never wait on it while holding anything; completions run on the writer thread and must
/// be quick (hand off to an event loop).
final class StoreWriter: Sendable {
    typealias Completion = @Sendable (Result<[StoreOutcome], StoreError>) -> Void

    struct Submission: Sendable {
        var operations: [StoreOperation]
        var completion: Completion
    }

    private struct Inbox {
        var submissions: [Submission] = []
        var sleeping = false
        var closing = false
    }

    let environment: LMDBEnvironment
    let configuration: StoreConfiguration
    let logger: Logger
    private let inbox = Mutex(Inbox())
    /// Queue lengths per token, for the per-device cap. Only the writer changes queues, so it keeps
    /// them in memory rather than writing a count beside every notification (one more dirty page
    /// per notification, which cost a third of the throughput). Filled by counting a queue the first
    /// time it is touched; emptied when a commit fails, since the counts may include its changes.
    /// Writer thread only (the lock is never contended).
    let queueLengths = Mutex<[DeviceToken: Int]>([:])
    /// Commit counters, read by ``NotificationStore/statistics``.
    let statistics = Mutex(StoreStatistics())
    /// Told of every commit; see ``StoreCommit``.
    private let observer: (@Sendable (StoreCommit) -> Void)?
    /// What the transaction being written did, for the observer. Writer thread only.
    private let changes = Mutex<[StoreChange]>([])
    private let wakeup = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)

    init(
        environment: LMDBEnvironment,
        configuration: StoreConfiguration,
        logger: Logger,
        observer: (@Sendable (StoreCommit) -> Void)?
    ) throws(StoreError) {
        self.environment = environment
        self.configuration = configuration
        self.logger = logger
        self.observer = observer
        let first = try environment.read { txn throws(StoreError) -> UInt64 in
            guard let bytes = try txn.get(environment.meta, StoreKeys.nextSequence), bytes.count == 8 else { return 1 }
            return bytes.withUnsafeBytes { $0.readBigEndianUInt64(at: 0) }
        }
        let thread = Thread { [self] in
            var state = WriterState(nextSequence: first)
            self.run(&state)
            self.finished.signal()
        }
        thread.name = "apns-store-writer"
        thread.start()
    }

    /// Queues operations for the next commit; `completion` runs after it, on the writer thread.
    func submit(_ operations: [StoreOperation], completion: @escaping Completion) {
        let accepted = self.inbox.withLock { inbox -> (accepted: Bool, wake: Bool) in
            guard !inbox.closing else { return (false, false) }
            inbox.submissions.append(Submission(operations: operations, completion: completion))
            let wake = inbox.sleeping
            inbox.sleeping = false
            return (true, wake)
        }
        if !accepted.accepted {
            completion(.failure(.closed))
        } else if accepted.wake {
            self.wakeup.signal()
        }
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

    /// What only the writer thread touches.
    struct WriterState {
        var nextSequence: UInt64
        var nextSweep = ContinuousClock.now
        var nextSync = ContinuousClock.now
        var mapFullLogged = false
    }

    private func run(_ state: inout WriterState) {
        let clock = ContinuousClock()
        state.nextSweep = clock.now + self.configuration.sweepInterval
        state.nextSync = clock.now + self.configuration.relaxedSyncInterval
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
                self.commit(batch, &state)
            }
            let now = clock.now
            if now >= state.nextSweep {
                self.commit([Submission(operations: [.sweepExpired], completion: { _ in })], &state)
                state.nextSweep = now + self.configuration.sweepInterval
            }
            if self.configuration.durability == .relaxed && now >= state.nextSync {
                self.syncToDisk()
                state.nextSync = now + self.configuration.relaxedSyncInterval
            }
            if closing {
                if batch.isEmpty { break }
                continue
            }
            if batch.isEmpty {
                var deadline = state.nextSweep
                if self.configuration.durability == .relaxed { deadline = min(deadline, state.nextSync) }
                let wait = max(.zero, deadline - clock.now)
                let nanoseconds = wait.components.seconds * 1_000_000_000 + wait.components.attoseconds / 1_000_000_000
                let asleep = clock.now
                _ = self.wakeup.wait(timeout: .now() + .nanoseconds(Int(nanoseconds)))
                spin.woke(after: clock.now - asleep)
                self.inbox.withLock { $0.sleeping = false }
            }
        }
        if self.configuration.durability == .relaxed { self.syncToDisk() }
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
    private func commit(_ batch: [Submission], _ state: inout WriterState) {
        let now = self.configuration.clock()
        let started = ContinuousClock.now
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
        case .failure(let error) where Self.isolates(error) && batch.reduce(0, { $0 + $1.operations.count }) > 1:
            // One operation failed the transaction for everyone: give each its own, so only it fails.
            self.statistics.withLock { $0.failedCommits += 1 }
            self.discardChanges()
            self.logger.info("store commit failed; retrying each operation alone", metadata: ["store.error": "\(error)"])
            self.isolate(batch, &state)
        case .failure(let error):
            self.failed(batch, error, &state)
        }
    }

    /// Whether a failed transaction is worth retrying operation by operation: not when the map
    /// is full or the store closed, which no operation escapes.
    private static func isolates(_ error: StoreError) -> Bool {
        switch error {
        case .mapFull, .closed: return false
        default: return true
        }
    }

    /// Commits every operation of `batch` in a transaction of its own, then completes each
    /// submission with its operations' outcomes (`.refused` for one that failed).
    private func isolate(_ batch: [Submission], _ state: inout WriterState) {
        for submission in batch {
            let outcomes = Mutex<[StoreOutcome]>([])
            for operation in submission.operations {
                let single = Submission(operations: [operation]) { result in
                    let outcome: StoreOutcome
                    switch result {
                    case .success(let done): outcome = done.first ?? .refused("no outcome")
                    case .failure(let error): outcome = .refused("\(error)")
                    }
                    outcomes.withLock { $0.append(outcome) }
                }
                self.commit([single], &state)
            }
            submission.completion(.success(outcomes.withLock { $0 }))
        }
    }

    /// The body of a batch's transaction: every operation in order, then the log trimmed (when
    /// something was logged) and the next sequence number stored.
    private func write(_ batch: [Submission], _ txn: Transaction, nowMillis now: Int64, sequence: inout UInt64) throws(StoreError) -> [[StoreOutcome]] {
        var outcomes: [[StoreOutcome]] = []
        outcomes.reserveCapacity(batch.count)
        var logged = false
        for submission in batch {
            var submissionOutcomes: [StoreOutcome] = []
            submissionOutcomes.reserveCapacity(submission.operations.count)
            for operation in submission.operations {
                if self.configuration.checksOperations, let problem = operation.problem {
                    submissionOutcomes.append(.refused(problem))
                    continue
                }
                let outcome = try self.apply(operation, txn, nowMillis: now, sequence: &sequence)
                switch outcome {
                case .queued, .discarded, .deliverOnce, .recorded, .acknowledged(true), .unregistered: logged = true
                case .swept(let count) where count > 0: logged = true
                default: break
                }
                submissionOutcomes.append(outcome)
            }
            outcomes.append(submissionOutcomes)
        }
        if logged { try self.trimLog(txn) }
        var sequenceBytes: [UInt8] = []
        sequenceBytes.appendBigEndian(sequence)
        try txn.put(self.environment.meta, StoreKeys.nextSequence, sequenceBytes)
        return outcomes
    }

    /// After a commit: counts it, tells the observer, then completes every submission.
    private func committed(_ batch: [Submission], _ outcomes: [[StoreOutcome]], duration: Duration, _ state: inout WriterState) {
        let operationCount = outcomes.reduce(0) { $0 + $1.count }
        self.statistics.withLock {
            $0.commits += 1
            $0.operations += operationCount
        }
        if let observer = self.observer {
            let changes = self.changes.withLock { changes in
                defer { changes.removeAll(keepingCapacity: true) }
                return changes
            }
            observer(StoreCommit(operations: operationCount, duration: duration, changes: changes))
        }
        if state.mapFullLogged {
            self.logger.info("store accepts writes again")
            state.mapFullLogged = false
        }
        for (submission, outcome) in zip(batch, outcomes) { submission.completion(.success(outcome)) }
    }

    /// Forgets what a failed transaction did: the queue lengths may include its changes.
    private func discardChanges() {
        self.queueLengths.withLock { $0.removeAll() }
        self.changes.withLock { $0.removeAll(keepingCapacity: true) }
    }

    /// After a failed transaction (nothing of it was written): logs it and fails every submission.
    private func failed(_ batch: [Submission], _ error: StoreError, _ state: inout WriterState) {
        self.statistics.withLock { $0.failedCommits += 1 }
        self.discardChanges()
        if case .mapFull = error {
            if !state.mapFullLogged {
                self.logger.info(
                    "store full: answering providers 503 ServiceUnavailable until space is freed",
                    metadata: ["store.error": "\(error)", "store.directory": "\(self.configuration.directory)"]
                )
                state.mapFullLogged = true
            }
        } else {
            self.logger.info("store commit failed", metadata: ["store.error": "\(error)"])
        }
        for submission in batch { submission.completion(.failure(error)) }
    }
}

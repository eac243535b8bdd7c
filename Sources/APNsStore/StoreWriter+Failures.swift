import Synchronization

/// What the writer does when a transaction fails.
extension StoreWriter {
    /// Commits every operation of `batch` in a transaction of its own, then completes each
    /// submission with its operations' outcomes (`.refused` for one that failed).
    func isolate(_ batch: [Submission], _ state: inout CommitState) {
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

    /// Forgets what a failed transaction did: the queue lengths may include its changes.
    func discardChanges() {
        self.queueLengths.withLock { $0.removeAll() }
        self.changes.withLock { $0.removeAll(keepingCapacity: true) }
    }

    /// After a failed transaction (nothing of it was written): logs it and fails every submission.
    func failed(_ batch: [Submission], _ error: StoreError, _ state: inout CommitState) {
        self.statistics.withLock { $0.failedCommits += 1 }
        self.discardChanges()
        if error.isOutage {
            self.noteOutage(error, refused: batch.reduce(0) { $0 + $1.operations.count }, &state)
        } else {
            self.logger.info("store commit failed", metadata: ["store.error": "\(error)"])
        }
        for submission in batch { submission.completion(.failure(error)) }
    }

    /// Counts a batch an outage refused. The log hears of outages at most once per
    /// ``StoreOutage/summaryInterval`` (a disk filling up fails some commits and not others, and a
    /// provider retrying in a loop must fill neither the disk with the log of it nor slow the
    /// answers): the first line says the store cannot write, later ones sum up what was refused.
    private func noteOutage(_ error: StoreError, refused: Int, _ state: inout CommitState) {
        let outage = self.outage.withLock { current -> StoreOutage in
            var outage = current ?? StoreOutage(since: self.configuration.clock(), error: error)
            outage.error = error
            outage.refused += refused
            outage.failedCommits += 1
            current = outage
            return outage
        }
        let now = ContinuousClock.now
        if !state.inOutage || now >= state.nextProbe { state.nextProbe = now + StoreOutage.probeInterval }
        state.inOutage = true
        state.unloggedRecovery = nil
        state.refusedSinceLine += refused
        guard now >= state.nextOutageLine else { return }
        if !state.outageLogged {
            self.logger.warning(
                "store cannot write: answering providers 503 ServiceUnavailable until a write succeeds",
                metadata: ["store.error": "\(error)", "store.directory": "\(self.configuration.directory)"])
        } else {
            self.logger.warning(
                "store still cannot write",
                metadata: [
                    "store.error": "\(error)", "store.refused": "\(state.refusedSinceLine)",
                    "store.refused.total": "\(outage.refused)", "store.failedCommits": "\(outage.failedCommits)",
                ])
        }
        state.outageLogged = true
        state.refusedSinceLine = 0
        state.nextOutageLine = now + StoreOutage.summaryInterval
    }

    /// After a commit that wrote: an outage, if there was one, is over (the log hears of it
    /// within an interval, ``logRecovery(_:)``).
    func endOutage(_ state: inout CommitState) {
        guard let outage = self.outage.withLock({ $0.take() }) else { return }
        state.inOutage = false
        state.unloggedRecovery = outage
        self.logRecovery(&state)
    }

    /// Says that the store writes again, once the interval since the last outage line is over;
    /// after every commit (the writer's sweep commits every second).
    func logRecovery(_ state: inout CommitState) {
        guard let outage = state.unloggedRecovery, ContinuousClock.now >= state.nextOutageLine else { return }
        state.unloggedRecovery = nil
        state.outageLogged = false
        state.refusedSinceLine = 0
        self.logger.warning(
            "store writes again",
            metadata: [
                "store.refused.total": "\(outage.refused)", "store.failedCommits": "\(outage.failedCommits)",
                "store.outage.ms": "\(max(0, self.configuration.clock() - outage.since))",
            ])
        state.nextOutageLine = ContinuousClock.now + StoreOutage.summaryInterval
    }
}

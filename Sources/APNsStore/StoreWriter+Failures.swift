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

import APNsCore

/// The journal follows the store's commits off the writer's thread (issue 68): the writer hands
/// each commit over (``apply(_:)``) and goes on to the next batch; the journal's follower applies
/// it, unless something that reads or changes the journal comes first, which applies every commit
/// handed over before it does anything (``locked(_:)``). A read that follows an answer therefore
/// shows what the answer said, however far behind the follower is: a barrier, not a sleep.
extension Journal {
    /// How many commits may wait for the follower before the thread handing one over applies
    /// them itself: a follower starved of CPU does not let them grow without bound.
    static let pendingLimit = 4096

    /// A commit of at most this many changes, with none waiting before it, is applied where it
    /// was made when the journal is free: waking the follower for one push at a time costs more
    /// CPU than applying it (measured: about 15 µs a request at `h2load -c1 -m1`).
    static let inlineLimit = 4

    /// Takes in one store commit; on the thread that committed it (the writer's, or an event
    /// loop's), inside the store's commit, so that commits come in the order they were made.
    /// Handed over to the follower, or applied here when it is small and nothing waits.
    public func apply(_ commit: StoreCommit) {
        guard !commit.changes.isEmpty else { return }
        if commit.changes.count <= Self.inlineLimit, self.applyHere(commit) { return }
        let waiting = self.pending.withLock { pending in
            pending.append(commit)
            return pending.count
        }
        if waiting == 1 {
            self.follower.async { self.settle() }
        } else if waiting > Self.pendingLimit {
            self.settle()
        }
    }

    /// Applies `commit` on this thread if no commit waits for the follower and no one holds the
    /// journal; false (nothing done) otherwise.
    private func applyHere(_ commit: StoreCommit) -> Bool {
        guard self.pending.withLock({ $0.isEmpty }) else { return false }
        // Nothing is handed over meanwhile: commits are made one at a time, and this is inside one.
        let applied = self.guarded.withLockIfAvailable { state -> Bool in
            self.apply(commit, &state)
            return true
        }
        return applied ?? false
    }

    /// Applies every commit handed over so far: what a reader of the journal's side effects (the
    /// Console's counts in `/metrics`, a reset of them) waits behind.
    public func settle() {
        self.locked { _ in }
    }

    /// Runs `body` under the journal's lock, after applying the commits handed over before it, in order.
    func locked<T, E: Error>(_ body: (inout State) throws(E) -> T) throws(E) -> T {
        try self.guarded.withLock { (state: inout State) throws(E) -> T in
            // Taken under the journal's lock: two threads that apply never interleave commits.
            // Swapped out, not copied: the list's storage moves here and the next commit starts a new one.
            var commits: [StoreCommit] = []
            self.pending.withLock { swap(&commits, &$0) }
            for commit in commits { self.apply(commit, &state) }
            return try body(&state)
        }
    }
}

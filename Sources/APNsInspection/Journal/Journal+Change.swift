import APNsCore

/// What happens to an entry after it arrived (the phone presented it, the user responded, the
/// power state held it, a fault rule marked it) and the long polls that wait for one, over the
/// whole journal: with a store every entry is in the archive, the ring's only without one. The
/// archive's records are read back from the store outside the journal's lock, as a query's are.
extension Journal {
    /// Changes the entry with this unique id, in the ring or the archive; `then` runs under the
    /// journal's lock with the changed entry (to tell listeners). Nil when the journal has no such entry.
    @discardableResult
    func change(
        uniqueID: String,
        _ change: (inout JournalEntry) -> Void,
        then: (JournalEntry, inout State) -> Void = { _, _ in }
    ) -> JournalEntry? {
        let (changed, candidate, source) = self.locked {
            state -> (JournalEntry?, ArchivedRead?, (any JournalArchiveSource)?) in
            if let entry = state.journal.modify(uniqueID: uniqueID, change) {
                then(entry, &state)
                return (entry, nil, nil)
            }
            return (nil, state.journal.archive?.read(uniqueID: uniqueID), state.archiveSource)
        }
        if let changed { return changed }
        guard let candidate, let source else { return nil }
        // The record is read outside the lock; the entry is rebuilt under it from what the archive
        // holds then (its status may have moved meanwhile), changed, and written back.
        let record = candidate.key.flatMap { source.records([$0]).first ?? nil }
        guard JournalArchive.entry(candidate, record: record)?.uniqueID == uniqueID else { return nil }
        return self.locked { state -> JournalEntry? in
            guard let current = state.journal.archive?.read(id: candidate.entry.id),
                var entry = JournalArchive.entry(current, record: record)
            else { return nil }
            change(&entry)
            state.journal.archive?.replace(with: entry)
            then(entry, &state)
            return entry
        }
    }

    /// The oldest entry newer than `after` that satisfies the wait, if there is one now; otherwise
    /// `resume` is called with the first that arrives, and the returned token cancels the wait.
    /// Archived entries are older than the ring's: they are looked through first, a batch at a
    /// time (each taken under the lock, read back outside it), oldest first, until one matches.
    public func wait(
        for filter: JournalFilter,
        after: UInt64,
        resume: @escaping @Sendable (JournalEntry) -> Void
    ) -> (found: JournalEntry?, token: UInt64?) {
        let (hot, token, batch, source) = self.locked {
            state -> (JournalEntry?, UInt64?, [ArchivedRead], (any JournalArchiveSource)?) in
            let hot = state.journal.oldest(matching: filter, after: after)
            let batch = Self.archived(filter, after: after, state)
            if batch.isEmpty, let hot { return (hot, nil, [], nil) }
            // Registered before the lock is left: nothing that arrives while the archive is read is missed.
            let token = state.nextToken
            state.nextToken += 1
            state.waiters[token] = Waiter(filter: filter, resume: resume)
            return (hot, token, batch, state.archiveSource)
        }
        guard let token else { return (hot, nil) }
        var found: JournalEntry?
        var next = batch
        while found == nil, let source, let last = next.last {
            found = Self.read(next, from: source).first { Self.waitMatches(filter, $0) }
            next = found == nil ? self.locked { Self.archived(filter, after: last.entry.id, $0) } : []
        }
        guard let found = found ?? hot else { return (nil, token) }
        // Unless an entry that arrived meanwhile has already answered the wait.
        return self.cancelWait(token) ? (found, nil) : (nil, token)
    }

    /// The next batch of archived entries newer than `after` that the filter's indexed
    /// conditions select, oldest first; empty without an archive.
    private static func archived(_ filter: JournalFilter, after: UInt64, _ state: State) -> [ArchivedRead] {
        guard let archive = state.journal.archive, state.archiveSource != nil, (archive.newestID ?? 0) > after,
            let matcher = ArchiveMatcher(filter, in: archive)
        else { return [] }
        return archive.reads(newerThan: after, matcher, limit: Self.archiveBatch)
    }
}

import APNsCore

/// The admin API's reads over the whole journal: the ring in memory (without a store), then the
/// archive, whose entries the store reads back outside the journal's lock (the writer thread never
/// waits for a query).
extension Journal {
    /// A page of the ring alone, as ``JournalState/page(matching:limit:before:)`` gives it.
    typealias Page = (total: Int, items: [JournalEntry], next: UInt64?)
    /// What a query takes from under the lock to finish outside it.
    typealias Taken<Hot> = (hot: Hot, cold: ArchivedCandidates, source: (any JournalArchiveSource)?)

    /// How many archived entries one read of the store takes.
    static let archiveBatch = 256

    /// From now on every entry goes to an archive as it is added (``JournalState``), its contents
    /// read back from `source` (the log) when asked.
    public func useArchive(_ source: any JournalArchiveSource) {
        self.locked { state in
            state.archiveSource = source
            state.journal.useArchive()
        }
    }

    /// One page, newest first, over everything the journal holds: how many entries match in all,
    /// up to `limit` of them below the cursor `before`, and the cursor of the next page (nil on the last).
    public func page(
        matching filter: JournalFilter, limit: Int, before: UInt64?
    ) -> (total: Int, items: [JournalEntry], next: UInt64?) {
        // A search the store can run over its records in place reads back only the page.
        if let search = filter.search, search.utf8.allSatisfy({ $0 < 0x80 }),
            let source = self.locked({ $0.archiveSource }),
            let found = source.sequences(containing: Array(search.utf8))
        {
            return self.searchPage(filter, search: search, found: found, limit: limit, before: before, source: source)
        }
        let room = { (hot: Page) -> Int in max(0, limit - hot.items.count) }
        // Without a text search the archive's index answers the totals; only the page is read back.
        let (hot, cold, source) = self.locked { state -> Taken<Page> in
            let hot = state.journal.page(matching: filter, limit: limit, before: before)
            guard let source = state.archiveSource, let archive = state.journal.archive,
                let matcher = ArchiveMatcher(filter, in: archive)
            else { return (hot, ArchivedCandidates(), nil) }
            return (
                hot, ArchivedCandidates(archive, matcher, before: before, keep: filter.settlesInIndex ? room(hot) + 1 : nil),
                source
            )
        }
        guard let source else { return hot }
        var total = hot.total
        var items = hot.items
        var more = hot.next != nil
        if filter.settlesInIndex {
            total += cold.total
            let read = Self.read(cold.below, from: source)
            items += read.prefix(room(hot))
            more = more || (items.count == limit && cold.belowCount > items.count - hot.items.count)
        } else {
            // A search (or a condition that looks into the entry) reads every candidate back: totals count what matches.
            var found = 0
            var below = 0
            for batch in Self.batches(cold.all) {
                for entry in Self.read(batch, from: source) where filter.matches(entry) {
                    found += 1
                    guard before.map({ entry.id < $0 }) ?? true else { continue }
                    below += 1
                    if items.count < limit { items.append(entry) }
                }
            }
            total += found
            more = more || (items.count == limit && below > items.count - hot.items.count)
        }
        return (total, items, more ? items.last?.id : nil)
    }

    /// ``page(matching:limit:before:)`` for a text search, with the store's scan (`found`) settling
    /// what it can: the archived candidates it cannot are read back to look.
    private func searchPage(
        _ filter: JournalFilter, search: String, found: Set<UInt64>, limit: Int, before: UInt64?, source: any JournalArchiveSource
    ) -> Page {
        let (hot, cold) = self.locked { state -> (Page, ArchivedSearch?) in
            let hot = state.journal.page(matching: filter, limit: limit, before: before)
            guard let archive = state.journal.archive, let matcher = ArchiveMatcher(filter, in: archive) else {
                return (hot, nil)
            }
            let keep = max(0, limit - hot.items.count) + 1
            return (
                hot,
                ArchivedSearch(
                    archive, matcher, before: before, keep: keep, text: search, found: found,
                    settles: filter.more.settlesInIndex)
            )
        }
        guard let cold else { return hot }
        let looked = Self.batches(cold.unsettled).flatMap { Self.read($0, from: source).filter(filter.matches) }
        let bound = before ?? .max
        // Both lists are newest first: merged, below the cursor, after the ring's.
        var settled = Self.read(cold.settled, from: source)[...]
        var unsettled = looked.filter { $0.id < bound }[...]
        var items = hot.items
        while items.count < limit, let next = Self.newer(settled.first, unsettled.first) {
            items.append(next)
            if next.id == settled.first?.id { settled = settled.dropFirst() } else { unsettled = unsettled.dropFirst() }
        }
        let below = cold.settledBelowCount + looked.count { $0.id < bound }
        let more = hot.next != nil || (items.count == limit && below > items.count - hot.items.count)
        return (hot.total + cold.settledTotal + looked.count, items, more ? items.last?.id : nil)
    }

    private static func newer(_ a: JournalEntry?, _ b: JournalEntry?) -> JournalEntry? {
        guard let a else { return b }
        guard let b else { return a }
        return a.id > b.id ? a : b
    }

    /// The entry with this unique id (an accepted notification's `apns-unique-id`, a rejected
    /// request's journal id), in the ring or the archive.
    public func entry(uniqueID: String) -> JournalEntry? {
        let (hot, candidate, source) = self.locked {
            state -> (JournalEntry?, ArchivedRead?, (any JournalArchiveSource)?) in
            if let entry = state.journal.entry(uniqueID: uniqueID) { return (entry, nil, nil) }
            return (nil, state.journal.archive?.read(uniqueID: uniqueID), state.archiveSource)
        }
        if let hot { return hot }
        guard let candidate, let source else { return nil }
        return Self.read([candidate], from: source).first { $0.uniqueID == uniqueID }
    }

    /// The journal id of the entry with this unique id.
    public func id(of uniqueID: String) -> UInt64? { self.entry(uniqueID: uniqueID)?.id }

    /// The newest matching entry, in the ring or the archive.
    public func newest(matching filter: JournalFilter) -> JournalEntry? {
        if let hot = self.read({ $0.newest(matching: filter) }) { return hot }
        return self.page(matching: filter, limit: 1, before: nil).items.first
    }

    /// Removes every matching entry, in the ring and the archive; what the store should delete
    /// with them, and how many there were.
    public func remove(matching filter: JournalFilter) -> (count: Int, keys: [JournalRecordKey]) {
        let (hot, cold, source) = self.locked { state -> Taken<[JournalEntry]> in
            let hot = state.journal.remove(matching: filter)
            guard let source = state.archiveSource, let archive = state.journal.archive,
                let matcher = ArchiveMatcher(filter, in: archive)
            else { return (hot, ArchivedCandidates(), nil) }
            return (hot, ArchivedCandidates(archive, matcher, before: nil, keep: nil), source)
        }
        var keys = hot.compactMap(Self.key)
        var removed: [ArchivedRead] = cold.all
        if !filter.settlesInIndex, let source {
            // Only what the text is in: read each back to look.
            removed = Self.batches(cold.all).flatMap { batch in
                zip(batch, Self.read(batch, from: source, keepingMissing: true)).compactMap { read, entry in
                    entry.map(filter.matches) == true ? read : nil
                }
            }
        }
        keys += removed.compactMap(\.key)
        self.locked { state in
            for read in removed { state.journal.archive?.remove(id: read.entry.id) }
        }
        return (hot.count + removed.count, keys)
    }

    /// Where the store keeps a ring entry's record.
    private static func key(_ entry: JournalEntry) -> JournalRecordKey? {
        switch entry.push {
        case .accepted(let notification):
            return entry.sequence.map { .notification(notification.token, sequence: $0) }
        case .rejected(let push): return .rejection(receivedAt: push.receivedAt, id: push.id)
        case .broadcast(let record): return .rejection(receivedAt: record.receivedAt, id: record.id)
        }
    }

    private static func batches(_ reads: [ArchivedRead]) -> [ArraySlice<ArchivedRead>] {
        stride(from: 0, to: reads.count, by: Self.archiveBatch).map { reads[$0..<min($0 + Self.archiveBatch, reads.count)] }
    }

    /// The journal entries `reads` were, read back from the store in one go: those it no longer
    /// holds are left out (or, `keepingMissing`, given as nil in their place).
    static func read(_ reads: some Collection<ArchivedRead>, from source: any JournalArchiveSource) -> [JournalEntry] {
        self.read(reads, from: source, keepingMissing: false).compactMap { $0 }
    }

    private static func read(
        _ reads: some Collection<ArchivedRead>, from source: any JournalArchiveSource, keepingMissing: Bool
    ) -> [JournalEntry?] {
        let keys = reads.compactMap(\.key)
        let records = keys.isEmpty ? [] : source.records(keys)
        var next = records.makeIterator()
        return reads.map { read in
            let record: JournalRecord? = read.key == nil ? nil : (next.next() ?? nil)
            return JournalArchive.entry(read, record: record)
        }
    }
}

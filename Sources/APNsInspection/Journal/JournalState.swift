import APNsCore

/// The journal's contents as a value. Without a store, the newest `capacity` entries in a ring,
/// accepted ones indexed by their store sequence (the store reports status changes by it; an
/// integer key keeps the follower's share small). With one (``useArchive()``), every entry goes to
/// the archive as it is added, which holds a small fixed entry of each and reads the rest back from
/// the log: the ring stays empty, and only the young that the store cannot give back yet are held
/// whole (refused requests, for `capacity` entries). Lookups by unique id scan: they serve the
/// admin API only. Pure bookkeeping, no locks or callbacks (``Journal`` adds those).
public struct JournalState: Sendable {
    public let capacity: Int
    private var slots: [JournalEntry?]
    private var bySequence: SequenceIndex
    /// The id the next entry gets; ids start at 1.
    private(set) var nextID: UInt64 = 1
    /// Every entry, while the store keeps it (nil: the ring alone, and pushed out means gone).
    public internal(set) var archive: JournalArchive?

    public init(capacity: Int) {
        self.capacity = max(1, capacity)
        self.slots = Array(repeating: nil, count: self.capacity)
        self.bySequence = SequenceIndex(capacity: self.capacity)
    }

    /// The oldest id that can still be in the ring.
    private var oldestID: UInt64 {
        self.nextID > UInt64(self.capacity) ? self.nextID - UInt64(self.capacity) : 1
    }

    private func slot(_ id: UInt64) -> Int { Int(id % UInt64(self.capacity)) }

    /// From now on every entry goes to an archive as it is added (the ring's, oldest first, now).
    mutating func useArchive() {
        guard self.archive == nil else { return }
        var archive = JournalArchive()
        for entry in self.newestFirst().reversed() {
            archive.append(entry, keepingWhole: Self.heldWhileYoung(entry))
        }
        archive.age(below: self.oldestID)
        self.archive = archive
        self.slots = Array(repeating: nil, count: self.capacity)
        self.bySequence.removeAll()
    }

    /// Whether the archive holds `entry` whole while it is young: a refused request, whose record
    /// the store writes after the journal has it.
    private static func heldWhileYoung(_ entry: JournalEntry) -> Bool {
        if case .rejected = entry.push { return true }
        return false
    }

    /// Adds an entry as the newest, pushing the oldest out when full; returns it with its id.
    @discardableResult
    public mutating func append(
        _ push: JournalEntry.Push,
        status: JournalStatus,
        statusAt: Int64? = nil,
        sequence: UInt64? = nil,
        fault: FaultMark? = nil,
        marks: DeliveryMarks = DeliveryMarks()
    ) -> JournalEntry {
        var entry = JournalEntry(
            id: 0, push: push, status: status, statusAt: statusAt, sequence: sequence, fault: fault, marks: marks)
        entry.id = self.add(entry)
        return entry
    }

    /// Adds `entry` (its id set here) as the newest, without a copy of it back: its id.
    @discardableResult
    mutating func add(_ entry: consuming JournalEntry) -> UInt64 {
        let id = self.nextID
        if self.archive != nil {
            // The log's index: a small fixed entry, the notification read back from the log when
            // asked; a refused request held whole while the store may not have written it yet.
            entry.id = id
            self.nextID += 1
            let oldest = self.oldestID
            self.archive?.append(entry, keepingWhole: Self.heldWhileYoung(entry))
            self.archive?.age(below: oldest)
            return id
        }
        let slot = self.slot(id)
        // Moved out of its slot, not copied: the writer thread does this for every notification.
        if let evicted = self.slots[slot].take() {
            if let sequence = evicted.sequence { self.bySequence.remove(sequence) }
            if !evicted.marks.contains(.unkept) { self.archive?.append(evicted) }
        }
        entry.id = id
        if let sequence = entry.sequence { self.bySequence.set(sequence, id) }
        self.slots[slot] = entry
        self.nextID += 1
        return id
    }

    /// The entry with this id, if the ring still holds it.
    public func entry(id: UInt64) -> JournalEntry? {
        guard let entry = self.slots[self.slot(id)], entry.id == id else { return nil }
        return entry
    }

    /// Moves the accepted notification stored under `sequence` to a new status; nil when the
    /// journal no longer holds it.
    @discardableResult
    public mutating func update(sequence: UInt64, status: JournalStatus, at: Int64) -> JournalEntry? {
        guard case .whole(let entry)? = self.changed(sequence: sequence, status: status, at: at) else { return nil }
        return entry
    }

    /// What a change of status changed: the ring's entry whole, or the archive's.
    enum Changed {
        case whole(JournalEntry)
        case archived(ArchivedEntry, ArchivedExtras?)
    }

    /// ``update(sequence:status:at:)``, telling where the entry is.
    mutating func changed(sequence: UInt64, status: JournalStatus, at: Int64) -> Changed? {
        guard let id = self.bySequence[sequence] else {
            return self.archive?.update(sequence: sequence, status: status, at: at).map(Changed.archived)
        }
        return self.modify(id: id) { entry in
            entry.status = status
            entry.statusAt = at
        }.map(Changed.whole)
    }

    /// Changes the entry with this unique id; nil when the journal no longer holds it.
    @discardableResult
    public mutating func modify(uniqueID: String, _ change: (inout JournalEntry) -> Void) -> JournalEntry? {
        guard let id = self.id(of: uniqueID) else { return nil }
        return self.modify(id: id, change)
    }

    private mutating func modify(id: UInt64, _ change: (inout JournalEntry) -> Void) -> JournalEntry? {
        let slot = self.slot(id)
        guard var entry = self.slots[slot], entry.id == id else { return nil }
        self.slots[slot] = nil  // keeps the entry's storage uniquely referenced while it changes
        change(&entry)
        self.slots[slot] = entry
        return entry
    }

    public func entry(uniqueID: String) -> JournalEntry? {
        self.newestFirst().first { $0.uniqueID == uniqueID }
    }

    /// The journal id of the entry with this unique id.
    public func id(of uniqueID: String) -> UInt64? { self.entry(uniqueID: uniqueID)?.id }

    /// Entries from newest to oldest, with ids below `before` when given.
    public func newestFirst(before: UInt64? = nil) -> some Sequence<JournalEntry> {
        let upper = min(before ?? self.nextID, self.nextID)
        let lower = self.oldestID
        let ids = upper > lower ? stride(from: upper - 1, through: lower, by: -1) : stride(from: 0, through: 1, by: -1)
        return ids.lazy.compactMap { id -> JournalEntry? in
            guard let entry = self.slots[self.slot(id)], entry.id == id else { return nil }
            return entry
        }
    }

    /// One page, newest first: how many entries match in all, up to `limit` of them below the
    /// cursor `before`, and the cursor of the next page (nil on the last).
    public func page(
        matching filter: JournalFilter, limit: Int, before: UInt64?
    ) -> (total: Int, items: [JournalEntry], next: UInt64?) {
        var total = 0
        var items: [JournalEntry] = []
        var more = false
        for entry in self.newestFirst() where filter.matches(entry) {
            total += 1
            if let before, entry.id >= before { continue }
            if items.count < limit { items.append(entry) } else { more = true }
        }
        return (total, items, more ? items.last?.id : nil)
    }

    /// The newest matching entry.
    public func newest(matching filter: JournalFilter) -> JournalEntry? {
        self.newestFirst().first(where: filter.matches)
    }

    /// The oldest matching entry newer than `after`, for a wait that may already be satisfied.
    public func oldest(matching filter: JournalFilter, after: UInt64) -> JournalEntry? {
        var found: JournalEntry?
        for entry in self.newestFirst() {
            if entry.id <= after { break }
            if Journal.waitMatches(filter, entry) { found = entry }
        }
        return found
    }

    /// Removes every matching entry; returns them.
    public mutating func remove(matching filter: JournalFilter) -> [JournalEntry] {
        let removed = Array(self.newestFirst().filter(filter.matches))
        for entry in removed {
            self.slots[self.slot(entry.id)] = nil
            if let sequence = entry.sequence { self.bySequence.remove(sequence) }
        }
        return removed
    }

    /// Forgets what the store no longer keeps (past `--retain`): notifications by sequence,
    /// rejected requests by id (the oldest go first, so they are looked for from the oldest).
    public mutating func forget(sequences: [UInt64], rejections: [String]) {
        var archived: [UInt64] = []
        for sequence in sequences {
            guard let id = self.bySequence[sequence] else {
                archived.append(sequence)
                continue
            }
            self.bySequence.remove(sequence)
            if self.slots[self.slot(id)]?.id == id { self.slots[self.slot(id)] = nil }
        }
        if !archived.isEmpty { self.archive?.forget(sequences: archived) }
        guard !rejections.isEmpty else { return }
        var wanted = Set(rejections)
        let oldest = self.oldestID
        self.archive?.forget(rejections: &wanted, young: oldest)
        var id = self.oldestID
        while id < self.nextID, !wanted.isEmpty {
            let slot = self.slot(id)
            if let entry = self.slots[slot], entry.id == id, entry.sequence == nil, wanted.remove(entry.uniqueID) != nil {
                self.slots[slot] = nil
            }
            id += 1
        }
    }

    /// Notifications dropped for room, whose records the store did not keep: the ring keeps what
    /// it holds (marked, so that it is not archived); the archive holds the young ones whole
    /// (`whole`: the notifications as the store last had them, by sequence), as long as the ring
    /// would have, and forgets the rest.
    public mutating func unkept(sequences: [UInt64], whole: [UInt64: Notification] = [:]) {
        var archived: [UInt64] = []
        for sequence in sequences {
            if let id = self.bySequence[sequence] {
                _ = self.modify(id: id) { $0.marks.insert(.unkept) }
            } else if let read = self.archive?.read(sequence: sequence), read.entry.id >= self.oldestID,
                let notification = whole[sequence],
                var entry = JournalArchive.entry(read, record: .notification(notification))
            {
                entry.marks.insert(.unkept)
                _ = self.archive?.keepWhole(sequence: sequence, entry)
            } else {
                archived.append(sequence)
            }
        }
        if !archived.isEmpty { self.archive?.forget(sequences: archived) }
    }

    /// Forgets everything (ids keep growing, so old cursors stay harmless).
    public mutating func removeAll() {
        self.archive?.removeAll()
        self.slots = Array(repeating: nil, count: self.capacity)
        self.bySequence.removeAll()
    }
}

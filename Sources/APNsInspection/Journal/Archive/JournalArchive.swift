import APNsCore

/// The journal's entries older than its ring, as many as the store keeps (`--retain`): a compact
/// index of each (``ArchivedEntry``) in id order, whose contents the store reads back
/// (``JournalArchiveSource``). Filters and totals run over the index; a page reads only its items.
///
/// Pure bookkeeping under ``Journal``'s lock, like ``JournalState``.
public struct JournalArchive: Sendable {
    /// Entries in id order; `entries[0]` is at position `base`.
    private(set) var entries: [ArchivedEntry] = []
    private var base = 0
    /// The index of the first entry that is not gone (or `entries.count`).
    private var firstLive = 0
    /// Accepted entries' sequences, ascending (they grow with ids), and their positions.
    private var sequences: [UInt64] = []
    private var positions: [Int] = []
    /// Rejected entries' positions, oldest first.
    private var rejections: [Int] = []
    /// What entries hold beyond their index fields, by id (rejected ones, and those the phone saw).
    private(set) var extras: [UInt64: ArchivedExtras] = [:]
    /// How many entries are not gone.
    public private(set) var count = 0
    private(set) var strings = Interner<String>()
    private(set) var tokens = TokenInterner()

    public init() {}

    /// Takes in an entry the ring pushed out (older than every entry here already is newer).
    mutating func append(_ entry: JournalEntry) {
        var archived = ArchivedEntry(
            id: entry.id, sequence: entry.sequence ?? 0, receivedAt: entry.receivedAt, statusAt: entry.statusAt ?? .min,
            uniqueHash: Self.hash(entry.uniqueID), token: ArchivedEntry.none,
            topic: entry.topic.map { self.strings.id($0) } ?? ArchivedEntry.none,
            pushType: entry.pushType.map { self.strings.id($0) } ?? ArchivedEntry.none,
            kind: .accepted, status: Self.index(entry.status), source: Self.index(entry.source),
            outcome: Self.index(PhoneOutcome.state(of: entry)), marks: entry.marks, hasExtras: false)
        var keptRequestID: String?
        switch entry.push {
        case .accepted(let notification):
            archived.token = self.tokens.id(notification.token)
        case .rejected(let rejected):
            archived.kind = .rejected
            archived.token = self.strings.id(rejected.token)
            keptRequestID = rejected.id
        case .broadcast(let record):
            archived.kind = .broadcast
            keptRequestID = record.id
        }
        if archived.kind != .accepted || ArchivedExtras.needed(for: entry) {
            archived.hasExtras = true
            self.extras[entry.id] = ArchivedExtras(entry, keptRequestID: keptRequestID, keepsWhole: archived.kind == .broadcast)
        }
        // Kept by the store beside each other, trimmed together, oldest first.
        if archived.kind != .accepted { self.rejections.append(self.base + self.entries.count) }
        if archived.kind == .accepted, entry.sequence != nil {
            self.sequences.append(archived.sequence)
            self.positions.append(self.base + self.entries.count)
        }
        self.entries.append(archived)
        self.count += 1
    }

    /// Moves an archived notification to a new status; false when it is not here.
    mutating func update(sequence: UInt64, status: JournalStatus, at: Int64) -> Bool {
        guard let index = self.index(ofSequence: sequence) else { return false }
        self.entries[index].status = Self.index(status)
        self.entries[index].statusAt = at
        // With nothing from the phone its outcome follows its status, as ``PhoneOutcome/state(of:)`` has it.
        let extras = self.extras(of: self.entries[index])
        if extras?.phone == nil, extras?.activity == nil {
            let waiting = status == .queued || self.entries[index].marks.contains(.extending)
            self.entries[index].outcome = Self.index(waiting ? PhoneOutcome.State.waiting : .none)
        }
        return true
    }

    /// Rewrites the archived entry with `entry`'s id from `entry`, changed since it was pushed
    /// out (the phone presented it, the user responded, its power state held it, a fault marked
    /// it); false when it is gone.
    @discardableResult
    mutating func replace(with entry: JournalEntry) -> Bool {
        guard let index = self.index(ofID: entry.id) else { return false }
        var archived = self.entries[index]
        archived.status = Self.index(entry.status)
        archived.statusAt = entry.statusAt ?? .min
        archived.marks = entry.marks
        archived.outcome = Self.index(PhoneOutcome.state(of: entry))
        let keptRequestID = self.extras(of: archived)?.keptRequestID
        archived.hasExtras = archived.kind != .accepted || ArchivedExtras.needed(for: entry)
        self.extras[entry.id] =
            archived.hasExtras
            ? ArchivedExtras(entry, keptRequestID: keptRequestID, keepsWhole: archived.kind == .broadcast) : nil
        self.entries[index] = archived
        return true
    }

    /// The entry with this id and where its record is, if it is here.
    func read(id: UInt64) -> ArchivedRead? {
        self.index(ofID: id).map { self.read(self.entries[$0]) }
    }

    /// The newest entry whose unique id hashes as `uniqueID`'s, if any. The search stops there:
    /// the phone's changes come for recent entries, and two of a million 64-bit hashes alike are
    /// about one chance in thirty million (the record read back settles it).
    func read(uniqueID: String) -> ArchivedRead? {
        let hash = Self.hash(uniqueID)
        return self.newestFirst().first { $0.uniqueHash == hash }.map { self.read($0) }
    }

    /// Up to `limit` entries newer than `after` that `matcher` selects, oldest first: what a wait
    /// begun at the cursor `after` looks through before the ring, a batch at a time.
    func reads(newerThan after: UInt64, _ matcher: ArchiveMatcher, limit: Int) -> [ArchivedRead] {
        guard after < .max else { return [] }
        let start = self.firstIndex(withIDAtLeast: after + 1)
        return self.entries[start...].lazy.filter { matcher.matches($0) }.prefix(limit).map { self.read($0) }
    }

    /// Forgets notifications the store no longer keeps.
    mutating func forget(sequences: some Sequence<UInt64>) {
        for sequence in sequences {
            guard let index = self.index(ofSequence: sequence) else { continue }
            self.markGone(index)
        }
        self.compact()
    }

    /// Forgets rejected requests the store no longer keeps; removes the ids it found from `ids`.
    /// The store forgets the oldest first, so they are the first rejected entries here: the
    /// search stops at the first one not among them.
    mutating func forget(rejections ids: inout Set<String>) {
        for position in self.rejections where !ids.isEmpty {
            let index = position - self.base
            guard index >= 0, self.entries[index].kind != .gone else { continue }
            guard let id = self.extras(of: self.entries[index])?.keptRequestID, ids.remove(id) != nil else { break }
            self.markGone(index)
        }
        self.compact()
    }

    /// Forgets the entry with this id (deleted through the admin API).
    mutating func remove(id: UInt64) {
        guard let index = self.index(ofID: id) else { return }
        self.markGone(index)
    }

    /// Forgets everything (a reset).
    mutating func removeAll() {
        self = JournalArchive()
    }

    /// The newest id here, if any.
    var newestID: UInt64? { self.entries.last?.id }

    /// Entries that are not gone, newest first, with ids below `before` when given.
    func newestFirst(before: UInt64? = nil) -> some Sequence<ArchivedEntry> {
        let end = before.map { self.firstIndex(withIDAtLeast: $0) } ?? self.entries.count
        return self.entries[..<end].reversed().lazy.filter { $0.kind != .gone }
    }

    /// What `entry` holds beyond its index fields.
    func extras(of entry: ArchivedEntry) -> ArchivedExtras? {
        entry.hasExtras ? self.extras[entry.id] : nil
    }

    /// `entry`, where the store keeps its contents (nil for a broadcast, which its extras hold
    /// whole), and its extras: what a read outside the lock needs.
    func read(_ entry: ArchivedEntry) -> ArchivedRead {
        ArchivedRead(entry: entry, key: self.key(of: entry), extras: self.extras(of: entry))
    }

    private func key(of entry: ArchivedEntry) -> JournalRecordKey? {
        switch entry.kind {
        case .accepted: return .notification(self.tokens[entry.token], sequence: entry.sequence)
        case .rejected, .broadcast:
            guard let id = self.extras(of: entry)?.keptRequestID else { return nil }
            return .rejection(receivedAt: entry.receivedAt, id: id)
        case .gone: return nil
        }
    }

    /// The journal entry `entry` was, from what the store read back for it (nil when it no longer could).
    static func entry(_ read: ArchivedRead, record: JournalRecord?) -> JournalEntry? {
        let (entry, extras) = (read.entry, read.extras)
        if entry.kind == .broadcast { return extras?.kept }
        let status = JournalStatus.all[Int(entry.status)]
        let statusAt = entry.statusAt == .min ? nil : entry.statusAt
        var restored: JournalEntry
        switch record {
        case .notification(let notification):
            restored = JournalEntry(
                id: entry.id, push: .accepted(notification), status: status, statusAt: statusAt, sequence: entry.sequence,
                fault: extras?.fault, marks: entry.marks)
        case .rejection(let push, let fault):
            restored = JournalEntry(
                id: entry.id, push: .rejected(push), status: status, statusAt: statusAt, sequence: nil,
                fault: fault ?? extras?.fault)
        case nil:
            return nil
        }
        restored.phone = extras?.phone
        restored.simulator = extras?.simulator
        restored.activity = extras?.activity
        restored.heldAt = extras?.heldAt
        return restored
    }

    // MARK: - Positions

    private mutating func markGone(_ index: Int) {
        guard self.entries[index].kind != .gone else { return }
        self.entries[index].kind = .gone
        if self.entries[index].hasExtras { self.extras[self.entries[index].id] = nil }
        self.count -= 1
        while self.firstLive < self.entries.count, self.entries[self.firstLive].kind == .gone { self.firstLive += 1 }
    }

    /// Drops gone entries from the front once they are an eighth of the whole (the store forgets
    /// oldest first), so that moving the rest costs a fraction of an entry's time each.
    private mutating func compact() {
        let gone = self.firstLive
        guard gone > 0, gone >= max(4096, self.entries.count / 8) || gone == self.entries.count else { return }
        self.entries.removeFirst(gone)
        self.base += gone
        self.firstLive = 0
        let stale = self.positions.prefix { $0 < self.base }.count
        self.positions.removeFirst(stale)
        self.sequences.removeFirst(stale)
        self.rejections.removeFirst(self.rejections.prefix { $0 < self.base }.count)
    }

    private func index(ofSequence sequence: UInt64) -> Int? {
        var (low, high) = (0, self.sequences.count)
        while low < high {
            let middle = (low + high) / 2
            if self.sequences[middle] < sequence { low = middle + 1 } else { high = middle }
        }
        guard low < self.sequences.count, self.sequences[low] == sequence else { return nil }
        let index = self.positions[low] - self.base
        guard index >= 0, index < self.entries.count, self.entries[index].kind != .gone else { return nil }
        return index
    }

    private func index(ofID id: UInt64) -> Int? {
        let index = self.firstIndex(withIDAtLeast: id)
        guard index < self.entries.count, self.entries[index].id == id, self.entries[index].kind != .gone else { return nil }
        return index
    }

    private func firstIndex(withIDAtLeast id: UInt64) -> Int {
        var (low, high) = (0, self.entries.count)
        while low < high {
            let middle = (low + high) / 2
            if self.entries[middle].id < id { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// FNV-1a of a unique id's UTF-8: to find it again without reading the store; cheaper than
    /// `hashValue` (SipHash) on the writer thread, and a match is checked against the record anyway.
    static func hash(_ text: String) -> Int {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        return Int(truncatingIfNeeded: hash)
    }

    static func index(_ status: JournalStatus) -> UInt8 {
        UInt8(JournalStatus.all.firstIndex(of: status) ?? 0)
    }

    static func index(_ source: Interface) -> UInt8 {
        UInt8(Interface.all.firstIndex(of: source) ?? 0)
    }

    static func index(_ outcome: PhoneOutcome.State) -> UInt8 {
        UInt8(PhoneOutcome.State.all.firstIndex(of: outcome) ?? 0)
    }
}

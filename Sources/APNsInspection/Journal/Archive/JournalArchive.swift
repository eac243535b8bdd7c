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
    /// The ids of entries held whole in their extras only while they are young (a refused request
    /// the store may not have written yet, a notification dropped for room that it did not keep),
    /// oldest first from `youngHead`: ``age(below:)`` lets them go.
    private var young: [UInt64] = []
    private var youngHead = 0

    public init() {}

    /// Takes in an entry (newer than every entry here), held whole while it is young when
    /// `keepingWhole` (``age(below:)``); a broadcast is held whole always.
    mutating func append(_ entry: JournalEntry, keepingWhole: Bool = false) {
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
        if archived.kind != .accepted || keepingWhole || ArchivedExtras.needed(for: entry) {
            archived.hasExtras = true
            self.extras[entry.id] = ArchivedExtras(
                entry, keptRequestID: keptRequestID, keepsWhole: archived.kind == .broadcast || keepingWhole)
            if keepingWhole { self.young.append(entry.id) }
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

    /// Lets go of the whole entries held while young (``append(_:keepingWhole:)``) of ids below
    /// `oldest`: a refused request is read back from the store from then on; a notification
    /// dropped for room, which the store did not keep, is forgotten.
    mutating func age(below oldest: UInt64) {
        var forgot = false
        while self.youngHead < self.young.count, self.young[self.youngHead] < oldest {
            let id = self.young[self.youngHead]
            self.youngHead += 1
            guard let index = self.index(ofID: id), let extras = self.extras[id], let kept = extras.kept else { continue }
            switch self.entries[index].kind {
            case .accepted:
                self.markGone(index)
                forgot = true
            case .rejected:
                self.extras[id] = ArchivedExtras(kept, keptRequestID: extras.keptRequestID, keepsWhole: false)
            case .broadcast, .gone: continue
            }
        }
        if self.youngHead >= 1024, self.youngHead * 2 >= self.young.count {
            self.young.removeFirst(self.youngHead)
            self.youngHead = 0
        }
        if forgot { self.compact() }
    }

    /// Holds the archived notification under `sequence` whole, as `entry`, while it is young: the
    /// store dropped it for room and will not give it back. False when it is not here.
    mutating func keepWhole(sequence: UInt64, _ entry: JournalEntry) -> Bool {
        guard let index = self.index(ofSequence: sequence) else { return false }
        self.entries[index].marks = entry.marks
        self.entries[index].hasExtras = true
        self.extras[entry.id] = ArchivedExtras(entry, keptRequestID: nil, keepsWhole: true)
        self.young.append(entry.id)
        return true
    }

    /// Moves an archived notification to a new status; what it is now and what it holds beyond
    /// (no key made: ``read(_:)`` gives one, for the rare reader), or nil when it is not here.
    mutating func update(sequence: UInt64, status: JournalStatus, at: Int64) -> (ArchivedEntry, ArchivedExtras?)? {
        guard let index = self.index(ofSequence: sequence) else { return nil }
        self.entries[index].status = Self.index(status)
        self.entries[index].statusAt = at
        // With nothing from the phone its outcome follows its status, as ``PhoneOutcome/state(of:)`` has it.
        let extras = self.extras(of: self.entries[index])
        if extras?.phone == nil, extras?.activity == nil {
            let waiting = status == .queued || self.entries[index].marks.contains(.extending)
            self.entries[index].outcome = Self.index(waiting ? PhoneOutcome.State.waiting : .none)
        }
        return (self.entries[index], extras)
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
        let held = self.extras(of: archived)
        // What was held whole (a broadcast; a young refusal or dropped notification) stays so, as it is now.
        let keepsWhole = archived.kind == .broadcast || held?.kept != nil
        archived.hasExtras = archived.kind != .accepted || keepsWhole || ArchivedExtras.needed(for: entry)
        self.extras[entry.id] =
            archived.hasExtras
            ? ArchivedExtras(entry, keptRequestID: held?.keptRequestID, keepsWhole: keepsWhole) : nil
        self.entries[index] = archived
        return true
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
    /// search from the oldest stops at the first one not among them. Those left are looked for
    /// among the entries `young` or newer (the journal's newest, as its ring's were), wherever
    /// they are among them.
    mutating func forget(rejections ids: inout Set<String>, young: UInt64) {
        for position in self.rejections where !ids.isEmpty {
            let index = position - self.base
            guard index >= 0, self.entries[index].kind != .gone else { continue }
            guard let id = self.extras(of: self.entries[index])?.keptRequestID, ids.remove(id) != nil else { break }
            self.markGone(index)
        }
        for position in self.rejections.reversed() where !ids.isEmpty {
            let index = position - self.base
            guard index >= 0, self.entries[index].id >= young else { break }
            guard self.entries[index].kind != .gone, let id = self.extras(of: self.entries[index])?.keptRequestID,
                ids.remove(id) != nil
            else { continue }
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

    func index(ofSequence sequence: UInt64) -> Int? {
        var (low, high) = (0, self.sequences.count)
        // Sequences run nearly without gaps: where it would be without any is tried first (one
        // read of a million-entry array rather than twenty).
        if let first = self.sequences.first, sequence >= first {
            let guess = Int(truncatingIfNeeded: min(sequence - first, UInt64(high)))
            if guess < high, self.sequences[guess] == sequence {
                (low, high) = (guess, guess)
            } else if guess < high, self.sequences[guess] > sequence {
                high = guess
            }
        }
        while low < high {
            let middle = (low + high) / 2
            if self.sequences[middle] < sequence { low = middle + 1 } else { high = middle }
        }
        guard low < self.sequences.count, self.sequences[low] == sequence else { return nil }
        let index = self.positions[low] - self.base
        guard index >= 0, index < self.entries.count, self.entries[index].kind != .gone else { return nil }
        return index
    }

    func index(ofID id: UInt64) -> Int? {
        let index = self.firstIndex(withIDAtLeast: id)
        guard index < self.entries.count, self.entries[index].id == id, self.entries[index].kind != .gone else { return nil }
        return index
    }

    func firstIndex(withIDAtLeast id: UInt64) -> Int {
        var (low, high) = (0, self.entries.count)
        while low < high {
            let middle = (low + high) / 2
            if self.entries[middle].id < id { low = middle + 1 } else { high = middle }
        }
        return low
    }
}

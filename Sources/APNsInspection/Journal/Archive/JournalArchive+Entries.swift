import APNsCore

/// The archive's reads: its entries found by sequence, id, unique id or a wait's cursor, an entry
/// rebuilt from what the store read back, and the hash and indexes its fields are kept as.
extension JournalArchive {
    /// The archived notification stored under `sequence`, if it is here.
    func read(sequence: UInt64) -> ArchivedRead? {
        self.index(ofSequence: sequence).map { self.read(self.entries[$0]) }
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

    /// The journal entry `entry` was, from what the store read back for it (nil when it no longer could).
    static func entry(_ read: ArchivedRead, record: JournalRecord?) -> JournalEntry? {
        let (entry, extras) = (read.entry, read.extras)
        let status = JournalStatus.all[Int(entry.status)]
        let statusAt = entry.statusAt == .min ? nil : entry.statusAt
        // Held whole (a broadcast; a young refusal or dropped notification): as it is, at its status now.
        if var kept = extras?.kept {
            kept.status = status
            kept.statusAt = statusAt
            kept.marks = entry.marks
            return kept
        }
        if entry.kind == .broadcast { return nil }
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

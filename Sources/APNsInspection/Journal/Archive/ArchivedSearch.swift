import APNsCore

/// A text search's archived candidates, newest first: those the store's scan settles (accepted,
/// with nothing beyond their record and token to look in) are counted at once and only the page's
/// are read back; the rest (rejected requests, entries the phone saw) are read back to look.
struct ArchivedSearch: Sendable {
    var settledTotal = 0
    var settledBelowCount = 0
    /// Settled matches below the cursor, at most `keep`.
    var settled: [ArchivedRead] = []
    /// Every candidate the scan cannot settle.
    var unsettled: [ArchivedRead] = []

    /// - Parameter found: the sequences whose stored record holds the text (``JournalArchiveSource/sequences(containing:)``).
    /// - Parameter settles: false when the filter has more to look at than the text (`q`'s other
    ///   terms): then what the scan found is read back too.
    init(
        _ archive: JournalArchive, _ matcher: ArchiveMatcher, before: UInt64?, keep: Int, text: String, found: Set<UInt64>,
        settles: Bool = true
    ) {
        // A token is stored as bytes: its hex form is looked in here, once per distinct token.
        let tokens = text.utf8.allSatisfy { Hex.value(of: $0) != nil } ? archive.tokens.ids { $0.hex.contains(text) } : []
        let bound = before ?? .max
        archive.entries.withUnsafeBufferPointer { entries in
            var index = entries.count
            while index > 0 {
                index -= 1
                let entry = entries[index]
                guard matcher.matches(entry) else { continue }
                guard entry.kind == .accepted, !entry.hasExtras else {
                    self.unsettled.append(archive.read(entry))
                    continue
                }
                guard found.contains(entry.sequence) || tokens.contains(entry.token) else { continue }
                guard settles else {
                    self.unsettled.append(archive.read(entry))
                    continue
                }
                self.settledTotal += 1
                guard entry.id < bound else { continue }
                self.settledBelowCount += 1
                if self.settled.count < keep { self.settled.append(archive.read(entry)) }
            }
        }
    }
}

/// The archived entries a filter's indexed conditions select, newest first: how many in all, and
/// which to read back (`all` of them for a search, else the first `keep` below the cursor).
struct ArchivedCandidates: Sendable {
    var total = 0
    var belowCount = 0
    var below: [ArchivedRead] = []
    var all: [ArchivedRead] = []

    init() {}

    init(_ archive: JournalArchive, _ matcher: ArchiveMatcher, before: UInt64?, keep: Int?) {
        // By index over plain values: this runs over every archived entry for each query, under the journal's lock.
        let bound = before ?? .max
        archive.entries.withUnsafeBufferPointer { entries in
            var index = entries.count
            while index > 0 {
                index -= 1
                guard matcher.matches(entries[index]) else { continue }
                self.total += 1
                let isBelow = entries[index].id < bound
                if isBelow { self.belowCount += 1 }
                if let keep {
                    if isBelow, self.below.count < keep { self.below.append(archive.read(entries[index])) }
                } else {
                    self.all.append(archive.read(entries[index]))
                }
            }
        }
    }
}

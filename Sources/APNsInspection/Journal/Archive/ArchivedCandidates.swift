/// The archived entries a filter's indexed conditions select, newest first: how many in all, and
/// which to read back (`all` of them for a search, else the first `keep` below the cursor).
struct ArchivedCandidates: Sendable {
    var total = 0
    var belowCount = 0
    var below: [ArchivedRead] = []
    var all: [ArchivedRead] = []

    init() {}

    init(_ archive: JournalArchive, _ matcher: ArchiveMatcher, before: UInt64?, keep: Int?) {
        for entry in archive.newestFirst() where matcher.matches(entry) {
            self.total += 1
            let isBelow = before.map { entry.id < $0 } ?? true
            if isBelow { self.belowCount += 1 }
            if let keep {
                if isBelow, self.below.count < keep { self.below.append(ArchivedRead(entry: entry, key: archive.key(of: entry))) }
            } else {
                self.all.append(ArchivedRead(entry: entry, key: archive.key(of: entry)))
            }
        }
    }
}

/// An archived entry and where its record is, taken under the journal's lock to read outside it.
struct ArchivedRead: Sendable {
    var entry: ArchivedEntry
    var key: JournalRecordKey?
    var extras: ArchivedExtras?
}

/// Where the journal reads back the entries its ring pushed out (``JournalArchive`` keeps only
/// what its filters and totals need): the store, which keeps them as `--retain` says.
public protocol JournalArchiveSource: Sendable {
    /// The records under these keys, in order; nil for one the store no longer holds.
    func records(_ keys: [JournalRecordKey]) -> [JournalRecord?]
}

/// Where the journal reads back the entries its ring pushed out (``JournalArchive`` keeps only
/// what its filters and totals need): the store, which keeps them as `--retain` says.
public protocol JournalArchiveSource: Sendable {
    /// The records under these keys, in order; nil for one the store no longer holds.
    func records(_ keys: [JournalRecordKey]) -> [JournalRecord?]

    /// The sequences of the stored notifications with `text` (lower-case ASCII) in their unique
    /// id, apns-id, push type, topic, collapse id or payload as sent, compared ASCII
    /// case-insensitively; nil when the store cannot say (the journal then reads each back).
    func sequences(containing text: [UInt8]) -> Set<UInt64>?
}

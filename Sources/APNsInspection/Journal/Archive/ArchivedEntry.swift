/// One entry of the journal as its archive keeps it (every entry, with a store): the fields its filters and
/// totals need, interned, and where the store keeps the rest. 64 bytes of plain values (what
/// few entries hold beyond, ``ArchivedExtras``, is kept beside, by id), so a million fit and a
/// filter runs over them without touching a reference count.
struct ArchivedEntry: Sendable {
    enum Kind: UInt8, Sendable {
        case accepted, rejected, broadcast
        /// Deleted, or forgotten by the store: skipped, and dropped once at the front.
        case gone
    }

    /// No string interned (a nil topic or push type).
    static let none = UInt32.max

    var id: UInt64
    /// An accepted notification's store sequence (0 otherwise).
    var sequence: UInt64
    var receivedAt: Int64
    /// When it reached its status; `Int64.min` for none.
    var statusAt: Int64
    /// The hash of its unique id, to find it by id without reading the store.
    var uniqueHash: Int
    /// Accepted: the token's id among the archive's tokens; rejected: the token as sent, among its strings.
    var token: UInt32
    var topic: UInt32
    var pushType: UInt32
    var kind: Kind
    /// Index in ``JournalStatus/all``.
    var status: UInt8
    /// Index in ``Interface/all``.
    var source: UInt8
    /// Index in ``PhoneOutcome/State/all``.
    var outcome: UInt8
    var marks: DeliveryMarks
    /// Whether the archive holds ``ArchivedExtras`` for it.
    var hasExtras: Bool
}

/// One committed write transaction, told to the store's observer on the writer thread after the
/// commit and before the submitters hear of it.
public struct StoreCommit: Sendable {
    /// The operations the transaction held (its batch size).
    public var operations: Int
    /// How long the transaction took, sync included.
    public var duration: Duration
    /// What it did to notifications, in order.
    public var changes: [StoreChange]

    public init(operations: Int, duration: Duration, changes: [StoreChange]) {
        self.operations = operations
        self.duration = duration
        self.changes = changes
    }
}

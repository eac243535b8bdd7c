import APNsCore

/// What a committed transaction did to a notification, as observers (the journal, metrics) see it.
public enum StoreChange: Sendable {
    /// Accepted under `sequence` at `at`: queued (`status` nil), or never stored and logged at once
    /// (expiration 0: `.delivered` when handed to a connected device, `.discarded` otherwise).
    case accepted(Notification, sequence: UInt64, at: Int64, status: LogStatus?)
    /// Left its queue at `at` (delivered, expired, replaced, dropped).
    case left(Notification, sequence: UInt64, status: LogStatus, at: Int64)
    /// Every queue and log was emptied (and the tokens too, when `devices`).
    case cleared(devices: Bool)
}

/// One committed write transaction, told to the store's observer on the writer thread after the
/// commit and before the submitters hear of it.
public struct StoreCommit: Sendable {
    /// The operations the transaction held (its batch size).
    public var operations: Int
    /// How long the transaction took, sync included.
    public var duration: Duration
    /// What it did to notifications, in order.
    public var changes: [StoreChange]
}

/// Where a stored notification lives: its token's queue and the log, both keyed by its sequence.
public struct StoredNotificationKey: Sendable, Hashable {
    public var token: DeviceToken
    public var sequence: UInt64

    public init(token: DeviceToken, sequence: UInt64) {
        self.token = token
        self.sequence = sequence
    }
}

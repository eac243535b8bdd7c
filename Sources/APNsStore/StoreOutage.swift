/// A spell in which the store cannot write: its map or its disk is full. From the first failed
/// commit until one succeeds again, every batch fails whole and at once (no operation is retried
/// alone; while the disk is full, between tries, one every ``StoreOutage/probeInterval``, no
/// transaction is even begun),
/// the log says so once and then once per ``StoreOutage/summaryInterval``, and the emulator is not
/// ready (`GET /readyz`).
public struct StoreOutage: Sendable, Equatable {
    /// How often a line sums up what an outage refused while it lasts.
    public static let summaryInterval = Duration.seconds(5)
    /// How often, while it lasts, a batch tries to write: the others are refused without a
    /// transaction, so that a full disk costs its requests nothing but their answer.
    public static let probeInterval = Duration.milliseconds(100)

    /// When the first commit failed (milliseconds since the UNIX epoch, the store's clock).
    public var since: Int64
    /// What the last failed commit met.
    public var error: StoreError
    /// Operations refused since the outage began.
    public var refused: Int
    /// Failed commits since the outage began (one a batch).
    public var failedCommits: Int

    public init(since: Int64, error: StoreError, refused: Int = 0, failedCommits: Int = 0) {
        self.since = since
        self.error = error
        self.refused = refused
        self.failedCommits = failedCommits
    }
}

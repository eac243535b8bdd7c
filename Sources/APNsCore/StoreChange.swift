/// What a committed transaction did to a notification, as observers (the journal, metrics) see it.
public enum StoreChange: Sendable {
    /// Accepted under `sequence` at `at`: queued (`status` nil), or never stored and logged at once
    /// (expiration 0: `.delivered` when handed to a connected device, `.discarded` otherwise).
    /// `connected`: a device held the token when it arrived (else it waits for one: the Push
    /// Notifications Console's "Stored - Device Offline").
    case accepted(Notification, sequence: UInt64, at: Int64, status: LogStatus?, connected: Bool)
    /// Left its queue at `at` (delivered, expired, replaced, dropped).
    case left(LeftNotification, sequence: UInt64, status: LogStatus, at: Int64)
    /// Every queue and log was emptied (and the tokens too, when `devices`).
    case cleared(devices: Bool)
    /// Past `--retain`: history the store no longer keeps, as the journal knows it (notifications
    /// by sequence, rejected requests by journal id).
    case forgotten(sequences: [UInt64], rejections: [String])
    /// Dropped for room (``left(_:sequence:status:at:)`` said so first) with no record kept: the
    /// journal has what it holds in memory and nothing to read back once that is gone.
    case unkept(sequences: [UInt64])
}

import APNsCore

/// Where a stored notification lives: its token's queue and the log, both keyed by its sequence.
public struct StoredNotificationKey: Sendable, Hashable {
    public var token: DeviceToken
    public var sequence: UInt64

    public init(token: DeviceToken, sequence: UInt64) {
        self.token = token
        self.sequence = sequence
    }
}

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

/// A notification that left its queue, as the store's observers get it: whole where the writer
/// had it decoded (a delivery, an expiry, a drop), or only what their counts need where it did
/// not (one a newer one replaced: the writer compares and removes it where the log keeps it,
/// and the log keeps it still, for whoever wants the rest).
public enum LeftNotification: Sendable {
    case whole(Notification)
    case summary(token: DeviceToken, pushType: PushType, priority: Priority)

    public var token: DeviceToken {
        switch self {
        case .whole(let notification): notification.token
        case .summary(let token, _, _): token
        }
    }

    public var pushType: PushType {
        switch self {
        case .whole(let notification): notification.pushType
        case .summary(_, let pushType, _): pushType
        }
    }

    public var priority: Priority {
        switch self {
        case .whole(let notification): notification.priority
        case .summary(_, _, let priority): priority
        }
    }

    /// The notification, where the writer had it whole.
    public var whole: Notification? {
        if case .whole(let notification) = self { return notification }
        return nil
    }
}

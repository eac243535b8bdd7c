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

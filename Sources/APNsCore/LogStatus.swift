/// How a notification left the queues (or never entered them).
public enum LogStatus: UInt8, Sendable, CaseIterable, CustomStringConvertible {
    /// Its expiration passed before a device took it.
    case expired = 1
    /// Expiration 0 (or past) with no device connected: never stored.
    case discarded = 2
    /// A device acknowledged it.
    case delivered = 3
    /// A newer notification replaced it (same collapse id, or the `latest` policy).
    case replaced = 4
    /// Dropped: the queue was over its cap.
    case dropped = 5
    /// Its token was unregistered (the app was removed) while it waited.
    case unregistered = 6

    public var description: String {
        switch self {
        case .expired: return "expired"
        case .discarded: return "discarded"
        case .delivered: return "delivered"
        case .replaced: return "replaced"
        case .dropped: return "dropped"
        case .unregistered: return "unregistered"
        }
    }
}

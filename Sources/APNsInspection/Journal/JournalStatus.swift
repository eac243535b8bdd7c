import APNsCore

/// Where a notification stands, as the admin API shows it.
public struct JournalStatus: Hashable, Sendable, CustomStringConvertible {
    public let rawValue: String

    private init(_ rawValue: String) { self.rawValue = rawValue }

    /// Accepted and waiting in its device's queue.
    public static let queued = JournalStatus("queued")
    /// A device acknowledged it (or, with expiration 0, was handed it at once).
    public static let delivered = JournalStatus("delivered")
    /// Its expiration passed before a device took it.
    public static let expired = JournalStatus("expired")
    /// Expiration 0 with no device connected: accepted, never stored.
    public static let discarded = JournalStatus("discarded")
    /// A newer notification with its collapse id (or the `latest` policy) replaced it.
    public static let replaced = JournalStatus("replaced")
    /// Dropped from a full queue.
    public static let dropped = JournalStatus("dropped")
    /// Its token was unregistered (the app was removed) while it waited.
    public static let unregistered = JournalStatus("unregistered")
    /// The provider got an error (a validation failure, a refused token, or an injected fault).
    public static let rejected = JournalStatus("rejected")
    /// A channel management request or a broadcast APNs answered with success: it has no queue.
    public static let accepted = JournalStatus("accepted")
    /// A request on a stream above a GOAWAY's last-stream-id: neither processed nor answered, and
    /// the client may send it again (RFC 9113, section 6.8). Not a refusal: the client saw none.
    public static let notProcessed = JournalStatus("notProcessed")

    /// In the order the archive numbers them (a new status goes last).
    public static let all: [JournalStatus] = [
        .queued, .delivered, .expired, .discarded, .replaced, .dropped, .unregistered, .rejected, .accepted, .notProcessed,
    ]

    /// The status a request the provider got no success for is journaled with.
    public static func of(_ push: RejectedPush) -> JournalStatus { push.wasNotProcessed ? .notProcessed : .rejected }

    public init?(rawValue: String) {
        guard let found = Self.all.first(where: { $0.rawValue == rawValue }) else { return nil }
        self = found
    }

    public init(_ status: LogStatus) {
        switch status {
        case .expired: self = .expired
        case .discarded: self = .discarded
        case .delivered: self = .delivered
        case .replaced: self = .replaced
        case .dropped: self = .dropped
        case .unregistered: self = .unregistered
        }
    }

    public var description: String { self.rawValue }
}

import APNsCore
import APNsStore

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
    /// Dropped from a full queue, or its token was unregistered.
    public static let dropped = JournalStatus("dropped")
    /// The provider got an error (a validation failure, a refused token, or an injected fault).
    public static let rejected = JournalStatus("rejected")

    public static let all: [JournalStatus] = [.queued, .delivered, .expired, .discarded, .replaced, .dropped, .rejected]

    public init?(rawValue: String) {
        guard let found = Self.all.first(where: { $0.rawValue == rawValue }) else { return nil }
        self = found
    }

    init(_ status: LogStatus) {
        switch status {
        case .expired: self = .expired
        case .discarded: self = .discarded
        case .delivered: self = .delivered
        case .replaced: self = .replaced
        case .dropped: self = .dropped
        }
    }

    public var description: String { self.rawValue }
}

/// A request a provider got an error for, with what it sent as far as it could be read.
public struct RejectedPush: Sendable {
    /// The emulator's key for it in the journal (the same form as an `apns-unique-id`).
    public var id: String
    public var apnsID: String?
    /// The device token as sent, in hex (it may be malformed; that may be why it was rejected).
    public var token: String
    public var topic: String?
    public var pushType: String?
    public var priority: String?
    public var expiration: String?
    public var collapseID: String?
    /// The body as sent (at most ``maximumBody`` bytes of it).
    public var body: [UInt8]
    public var receivedAt: Int64
    public var source: Interface
    /// The HTTP/2 answer: reason and status.
    public var reason: String?
    public var httpStatus: Int?
    /// The binary interface's answer: the error response's status byte.
    public var statusByte: UInt8?

    /// The most of a rejected body the journal keeps.
    public static let maximumBody = 8192

    /// A rejected HTTP/2 request.
    init(_ request: PushRequest, id: String, apnsID: String?, reason: String?, httpStatus: Int?, receivedAt: Int64) {
        self.id = id
        self.apnsID = apnsID
        self.token = Self.token(fromPath: request.path)
        self.topic = request.topic
        self.pushType = request.pushType
        self.priority = request.priority
        self.expiration = request.expiration
        self.collapseID = request.collapseID
        self.body = Array(request.body.prefix(Self.maximumBody))
        self.receivedAt = receivedAt
        self.source = .http2
        self.reason = reason
        self.httpStatus = httpStatus
    }

    /// A rejected binary notification.
    init(_ request: BinaryPushRequest, id: String, topic: String?, statusByte: UInt8?, receivedAt: Int64) {
        self.id = id
        self.token = Hex.encode(request.token)
        self.topic = topic
        self.priority = request.priority.map { String($0) }
        self.expiration = request.expiry.map { String($0) }
        self.body = Array(request.payload.prefix(Self.maximumBody))
        self.receivedAt = receivedAt
        self.source = .binary
        self.statusByte = statusByte
    }

    /// The `<token>` of `/3/device/<token>`, lower-cased; the whole path when it has another shape.
    static func token(fromPath path: String?) -> String {
        guard let path else { return "" }
        let prefix = "/3/device/"
        guard path.hasPrefix(prefix) else { return path }
        return path.dropFirst(prefix.count).lowercased()
    }
}

/// A fault rule that shaped a provider's answer.
public struct FaultMark: Sendable, Equatable {
    public var ruleID: String
    public var action: String
}

/// One notification in the journal: what arrived, where it stands, and since when.
public struct JournalEntry: Sendable {
    public enum Push: Sendable {
        case accepted(Notification)
        case rejected(RejectedPush)
    }

    /// The journal's own order: larger is newer.
    public var id: UInt64
    public var push: Push
    public var status: JournalStatus
    /// When it reached `status` (delivered, expired, ...); nil while queued or for a rejection.
    public var statusAt: Int64?
    /// The store's key of an accepted notification.
    public var sequence: UInt64?
    /// The fault rule that shaped the answer, if any.
    public var fault: FaultMark?

    /// The `apns-unique-id` of an accepted notification; the journal's key of a rejected one.
    public var uniqueID: String {
        switch self.push {
        case .accepted(let notification): return notification.uniqueID
        case .rejected(let rejected): return rejected.id
        }
    }

    public var receivedAt: Int64 {
        switch self.push {
        case .accepted(let notification): return notification.receivedAt
        case .rejected(let rejected): return rejected.receivedAt
        }
    }

    var topic: String? {
        switch self.push {
        case .accepted(let notification): return notification.topic
        case .rejected(let rejected): return rejected.topic
        }
    }

    var pushType: String? {
        switch self.push {
        case .accepted(let notification): return notification.pushType.rawValue
        case .rejected(let rejected): return rejected.pushType
        }
    }

    var source: Interface {
        switch self.push {
        case .accepted(let notification): return notification.source
        case .rejected(let rejected): return rejected.source
        }
    }

    /// Whether the entry is for `token` (hex, lower-case; a rejected entry compares what was sent).
    func isFor(token: DeviceToken) -> Bool {
        switch self.push {
        case .accepted(let notification): return notification.token == token
        case .rejected(let rejected): return rejected.token == token.hex
        }
    }
}

import APNsCore

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
    /// What was wrong, for a person (the `apns-emulator-detail` the provider got).
    public var detail: String?
    /// The HTTP/2 request's `:path`, when it is not `/3/device/<token>`.
    public var path: String?
    /// The port it reached (each front door has its own), when it came over a socket.
    public var port: Int?
    /// The endpoint it was sent to (its port's, or the Apple host its `:authority` named); nil
    /// where there is none (Web Push, a connection refused before a request).
    public var environment: APNsEnvironment?

    /// Marks a request that came above a GOAWAY's last-stream-id: no answer at all, only this
    /// detail, which the store keeps with the request across restarts.
    public mutating func markNotProcessed(stream: Int32, lastStream: Int32) {
        (self.reason, self.httpStatus, self.statusByte) = (nil, nil, nil)
        self.detail =
            "\(Self.notProcessed): stream \(stream) came after the GOAWAY naming stream \(lastStream) as the last one processed; the client may send it again"
    }

    /// Whether ``markNotProcessed(stream:lastStream:)`` marked it.
    public var wasNotProcessed: Bool {
        self.httpStatus == nil && self.statusByte == nil && self.reason == nil
            && self.detail?.hasPrefix(Self.notProcessed) == true
    }

    private static let notProcessed = "not processed"

    /// The most of a rejected body the journal keeps.
    public static let maximumBody = 8192

    /// A rejected HTTP/2 request.
    public init(_ request: PushRequest, id: String, apnsID: String?, reason: String?, httpStatus: Int?, receivedAt: Int64) {
        self.id = id
        self.apnsID = apnsID
        self.token = Self.token(fromPath: request.path)
        if let path = request.path, !path.hasPrefix("/3/device/") { self.path = path }
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

    /// A rejected Web Push request: `token` is the web app's (empty for an unknown endpoint),
    /// `topic` its origin, `path` the endpoint's path.
    public init(webPushTo token: String, topic: String?, path: String, id: String, body: [UInt8], receivedAt: Int64) {
        self.id = id
        self.token = token
        self.topic = topic
        self.path = path
        self.body = Array(body.prefix(Self.maximumBody))
        self.receivedAt = receivedAt
        self.source = .webPush
    }

    /// A rejected binary notification.
    public init(_ request: BinaryPushRequest, id: String, topic: String?, statusByte: UInt8?, receivedAt: Int64) {
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

    /// A connection refused before it sent a request the door could read (no client certificate,
    /// bytes of another protocol): `body` holds what it sent first, `detail` what was wrong and
    /// where it belongs.
    public init(
        connectionOn source: Interface, port: Int?, id: String, statusByte: UInt8?, sent: [UInt8], detail: String,
        receivedAt: Int64
    ) {
        self.id = id
        self.token = ""
        self.body = Array(sent.prefix(Self.maximumBody))
        self.receivedAt = receivedAt
        self.source = source
        self.statusByte = statusByte
        self.port = port
        self.detail = detail
    }

    /// The `<token>` of `/3/device/<token>`, lower-cased; the whole path when it has another shape.
    public static func token(fromPath path: String?) -> String {
        guard let path else { return "" }
        let prefix = "/3/device/"
        guard path.hasPrefix(prefix) else { return path }
        return path.dropFirst(prefix.count).lowercased()
    }
}

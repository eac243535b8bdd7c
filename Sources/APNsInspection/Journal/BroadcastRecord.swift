import APNsCore

/// A channel management request or a broadcast, as the journal keeps it: what the provider
/// asked, what it was answered, and for a broadcast how many subscribed activities it reached.
public struct BroadcastRecord: Sendable {
    /// The journal's key: a broadcast's `apns-unique-id`, or an id of the same form.
    public var id: String
    public var requestID: String?
    /// `create`, `read`, `delete`, `list` or `publish`; nil when the path named none.
    public var operation: String?
    public var method: String?
    public var path: String?
    public var bundleID: String?
    public var channelID: String?
    /// Headers as sent (a broadcast's).
    public var pushType: String?
    public var priority: String?
    public var expiration: String?
    /// The request body as sent (at most ``RejectedPush/maximumBody`` bytes).
    public var body: [UInt8]
    public var receivedAt: Int64
    public var httpStatus: Int
    /// The refusal's reason, nil for a success.
    public var reason: String?
    public var detail: String?
    /// A broadcast's lint: what the subscribed activities ignore (the `apns-emulator-warning` answers).
    public var warnings: [String] = []
    /// The port it reached: the provider API's, the channels port, or the gateway's and feedback's with ALPN h2.
    public var port: Int?
    /// A broadcast's subscribers reached, and what each made of it.
    public var fanOut: Int?
    public var outcomes: [BroadcastActivityOutcome] = []
    /// Whether it was a broadcast APNs stored as the channel's message (policy 1).
    public var stored: Bool?

    public init(id: String, request: PushRequest, operation: String?, bundleID: String?, receivedAt: Int64, httpStatus: Int) {
        self.id = id
        self.requestID = request.requestID
        self.operation = operation
        self.method = request.method
        self.path = request.path
        self.bundleID = bundleID
        self.channelID = request.channelID
        self.pushType = request.pushType
        self.priority = request.priority
        self.expiration = request.expiration
        self.body = Array(request.body.prefix(RejectedPush.maximumBody))
        self.receivedAt = receivedAt
        self.httpStatus = httpStatus
    }

    /// A record read back from the store (``BroadcastRecordCodec``), its fields set after.
    init(id: String, receivedAt: Int64, httpStatus: Int) {
        self.id = id
        self.body = []
        self.receivedAt = receivedAt
        self.httpStatus = httpStatus
    }
}

/// One provider request as it arrived, before validation: the fields APNs looks at, still as text.
///
/// The wire layer fills this in from HTTP/2 headers; ``PushValidator`` turns it into a
/// ``Notification`` or a ``Reason``.
public struct PushRequest: Sendable {
    public var method: String?
    public var path: String?
    public var authorization: String?
    public var pushType: String?
    public var apnsID: String?
    public var expiration: String?
    public var priority: String?
    public var topic: String?
    public var collapseID: String?
    /// `apns-channel-id` and `apns-request-id`: channel management and broadcast requests.
    public var channelID: String?
    public var requestID: String?
    /// Set when any `apns-*` header (or `authorization`) appeared more than once.
    public var hasDuplicateHeaders: Bool
    /// The body bytes, at most ``PushValidator/maximumBufferedBody`` of them.
    public var body: [UInt8]
    /// How many body bytes the provider sent in all, even past what was buffered.
    public var bodyLength: Int
    /// The `content-length` header, when it was sent and is a number: how long the body says it is.
    public var contentLength: Int?
    /// The environment `:authority` names when it is one of Apple's hosts (a provider that
    /// resolves `api.push.apple.com` to the emulator); nil for any other host.
    public var hostEnvironment: APNsEnvironment?

    public init(
        method: String? = "POST",
        path: String? = nil,
        authorization: String? = nil,
        pushType: String? = nil,
        apnsID: String? = nil,
        expiration: String? = nil,
        priority: String? = nil,
        topic: String? = nil,
        collapseID: String? = nil,
        hasDuplicateHeaders: Bool = false,
        body: [UInt8] = [],
        bodyLength: Int? = nil
    ) {
        self.method = method
        self.path = path
        self.authorization = authorization
        self.pushType = pushType
        self.apnsID = apnsID
        self.expiration = expiration
        self.priority = priority
        self.topic = topic
        self.collapseID = collapseID
        self.hasDuplicateHeaders = hasDuplicateHeaders
        self.body = body
        self.bodyLength = bodyLength ?? body.count
    }
}

/// One request a provider sent over the HTTP/2 provider API, as the report card keeps it: a
/// refused one, or any near a refusal or a GOAWAY (when a request sent again has to be
/// recognised); the others are counted (``ProviderTally``). Made on the connection's event loop
/// as the request is answered.
public struct ProviderRequestRecord: Sendable {
    /// Real time, in milliseconds since 1970 (providers pace themselves by real clocks).
    public var at: Int64
    public var connection: UInt64
    public var stream: Int32
    /// The device token, in hex, as the path named it.
    public var token: Substring
    /// The `apns-id` the answer carried (the provider's, or the emulator's).
    public var apnsID: String?
    /// The answer's status: 200, an APNs error's, or 0 when the request was not processed (a
    /// GOAWAY's, a reset's).
    public var status: Int
    public var reason: String?
    public var pushType: String?
    public var priority: String?
    public var expiration: String?
    /// The request's path, headers and body, hashed: a request sent again has the same.
    public var fingerprint: Int
    /// The provider token it carried, hashed (0 for none).
    public var tokenHash: Int
    /// The lint's warning codes for an accepted one.
    public var warnings: [String]
    /// The exam's event this request met, if it met one.
    public var exam: ProviderExam.Event?
    /// Whether it was refused BadDeviceToken because the token belongs to the other environment's
    /// builds (a debug build's token sent to production, or the reverse).
    public var otherEnvironment = false

    public init(
        at: Int64, connection: UInt64, stream: Int32, token: Substring, apnsID: String?, status: Int, reason: String?,
        pushType: String?, priority: String?, expiration: String?, fingerprint: Int, tokenHash: Int = 0, warnings: [String] = [],
        exam: ProviderExam.Event? = nil
    ) {
        self.at = at
        self.connection = connection
        self.stream = stream
        self.token = token
        self.apnsID = apnsID
        self.status = status
        self.reason = reason
        self.pushType = pushType
        self.priority = priority
        self.expiration = expiration
        self.fingerprint = fingerprint
        self.tokenHash = tokenHash
        self.warnings = warnings
        self.exam = exam
    }
}

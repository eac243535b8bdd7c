import APNsAuth

/// One request to the Web Push service, as its HTTP/1.1 or HTTP/2 connection read it.
struct WebPushRequest: Sendable {
    var method: String
    var path: String
    /// Header fields by lower-cased name (the last of a repeated one).
    var headers: [String: String]
    var body: [UInt8]
    /// Whether the body was longer than the service takes (its bytes past the limit were not kept).
    var bodyTooLong: Bool
    /// The origin the request was sent to (`https://` and its Host or :authority).
    var origin: String?
    /// The port it came in on.
    var port: Int?
    /// Whether it came over HTTP/1.1 rather than HTTP/2 (ALPN's choice), for the delivery log.
    var overHTTP1 = false

    /// The largest encrypted body taken: RFC 8030 §7.2 has push services take at least 4096
    /// bytes, and Apple's APNs payloads are 4096 at most.
    static let maximumBody = 4096
    /// The longest `TTL` kept (APNs keeps a notification at most 30 days).
    static let longestTTL: Int64 = 30 * 86_400
}

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

/// What the Web Push service answers: a status, headers, and for a refusal Apple's
/// `{"reason": …}` body with the emulator's explanation in `apns-emulator-detail`.
struct WebPushAnswer: Sendable, Equatable {
    var status: Int
    var headers: [(String, String)] = []
    var body: [UInt8] = []
    /// A fault rule's: close the connection at once, answering nothing.
    var reset = false

    static func == (lhs: WebPushAnswer, rhs: WebPushAnswer) -> Bool {
        lhs.status == rhs.status && lhs.body == rhs.body && lhs.reset == rhs.reset
            && lhs.headers.elementsEqual(rhs.headers, by: { $0 == $1 })
    }

    static func refused(_ refusal: WebPushRefusal) -> WebPushAnswer {
        var body = "{\"reason\":\"".utf8.map { $0 }
        body += refusal.reason.utf8
        body += "\"}".utf8
        let detail = String(refusal.explanation.unicodeScalars.map { $0.isASCII && $0.value >= 0x20 ? Character($0) : "?" })
        return WebPushAnswer(
            status: refusal.status, headers: [("content-type", "application/json"), ("apns-emulator-detail", detail)], body: body)
    }
}

extension WebPushRefusal {
    /// 404: no subscription has this endpoint.
    static func unknownEndpoint(_ path: String) -> WebPushRefusal {
        WebPushRefusal(
            status: 404, reason: "BadPath",
            explanation:
                "no subscription has the endpoint \(path.prefix(80)): subscribe a web app (POST /api/v1/devices/<token>/web-apps) and push to its endpoint"
        )
    }

    /// 410: the subscription ended (unsubscribed, or WebKit ended it).
    static func gone(_ why: String) -> WebPushRefusal {
        WebPushRefusal(status: 410, reason: "Unregistered", explanation: why)
    }

    static func badRequest(_ reason: String, _ explanation: String) -> WebPushRefusal {
        WebPushRefusal(status: 400, reason: reason, explanation: explanation)
    }
}

import APNsAuth
import APNsCore
import Foundation

extension PushIntake {
    /// Checks a push as Apple's push service does; the push, or the answer refusing it.
    static func validate(
        webPush request: WebPushRequest, _ subscription: WebAppSubscription?, nowMillis: Int64
    ) -> Result<ValidWebPush, WebPushRefusal> {
        guard request.method == "POST" else {
            return .failure(
                WebPushRefusal(
                    status: 405, reason: "MethodNotAllowed", explanation: "a push is a POST to the endpoint (RFC 8030 section 5)")
            )
        }
        guard let subscription else { return .failure(.unknownEndpoint(request.path)) }
        if let ended = subscription.ended { return .failure(.gone(ended)) }
        let origin = request.origin ?? ""
        let vapid = VAPIDCredential.check(
            authorization: request.headers["authorization"], origin: origin,
            applicationServerKey: subscription.applicationServerKey, nowSeconds: nowMillis / 1000)
        let credential: VAPIDCredential
        switch vapid {
        case .failure(let refusal): return .failure(refusal)
        case .success(let checked): credential = checked
        }
        guard !request.bodyTooLong, request.body.count <= WebPushRequest.maximumBody else {
            return .failure(
                WebPushRefusal(
                    status: 413, reason: "PayloadTooLarge",
                    explanation:
                        "the encrypted body is larger than \(WebPushRequest.maximumBody) bytes (RFC 8030 section 7.2; APNs' limit)"
                ))
        }
        return Self.webPushFields(request).map { ttl, urgency, topic in
            ValidWebPush(
                subscription: subscription, ttl: ttl, urgency: urgency, topic: topic, body: request.body,
                vapidSubject: credential.subject, warnings: credential.warning.map { [$0] } ?? [])
        }
    }

    /// `TTL`, `Urgency`, `Topic` and the content coding (RFC 8030 §5.2–5.4, RFC 8291 §4).
    static func webPushFields(_ request: WebPushRequest) -> Result<(Int64, String, String?), WebPushRefusal> {
        guard let ttlText = request.headers["ttl"] else {
            return .failure(
                .badRequest(
                    "BadExpirationDate", "the TTL header is missing: an application server MUST send it (RFC 8030 section 5.2)"))
        }
        guard let ttl = Int64(ttlText.trimmingCharacters(in: .whitespaces)), ttl >= 0 else {
            return .failure(
                .badRequest(
                    "BadExpirationDate", "TTL is a number of seconds from 0 (RFC 8030 section 5.2); got \(ttlText.prefix(40))"))
        }
        let urgency = request.headers["urgency"]?.lowercased() ?? "normal"
        guard ["very-low", "low", "normal", "high"].contains(urgency) else {
            return .failure(
                .badRequest(
                    "BadPriority", "Urgency is very-low, low, normal or high (RFC 8030 section 5.3); got \(urgency.prefix(40))"))
        }
        let topic = request.headers["topic"]
        if let topic, topic.isEmpty || topic.utf8.count > 32 || !topic.utf8.allSatisfy(Self.isBase64URL) {
            return .failure(
                .badRequest(
                    "BadCollapseId", "Topic is at most 32 characters of the URL-safe base64 alphabet (RFC 8030 section 5.4)"))
        }
        if !request.body.isEmpty {
            let coding = request.headers["content-encoding"]?.lowercased()
            guard coding == "aes128gcm" else {
                return .failure(
                    .badRequest(
                        "BadContentEncoding",
                        "a push with a body is encrypted with Content-Encoding: aes128gcm (RFC 8291 section 4); got \(coding ?? "none")"
                    )
                )
            }
            guard request.body.count > 86 else {
                return .failure(
                    .badRequest(
                        "BadContentEncoding",
                        "the body is shorter than an aes128gcm header with the application server's key (86 bytes, RFC 8291 section 4)"
                    ))
            }
        }
        return .success((min(ttl, WebPushRequest.longestTTL), urgency, topic))
    }

    static func isBase64URL(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || byte == 0x2D
            || byte == 0x5F
    }
}

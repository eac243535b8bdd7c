import APNsAuth
import APNsCore
import Foundation

/// A web app's subscription as the push service sees it: where its pushes queue and what a
/// push must be signed with.
struct WebAppSubscription: Sendable, Equatable {
    var id: String
    var token: DeviceToken
    var origin: String
    /// The application server key it was made with (65 bytes).
    var applicationServerKey: [UInt8]
    /// Why it no longer takes pushes; nil while it does.
    var ended: String?
}

/// A push that passed every check: what the relay stores.
struct ValidWebPush: Sendable {
    var subscription: WebAppSubscription
    var ttl: Int64
    var urgency: String
    var topic: String?
    var body: [UInt8]
    var vapidSubject: String

    /// The notification the relay stores for it: the encrypted body travels in a small JSON
    /// envelope (base64url) with what the browser is told beside it.
    func notification(apnsID: String, uniqueID: String, receivedAt: Int64) -> APNsCore.Notification {
        var writer = JSONWriter()
        writer.object { writer in
            writer.member("webpush") { writer in
                writer.object { writer in
                    writer.member("subscription") { $0.string(self.subscription.id) }
                    writer.member("body") { $0.string(Self.base64URL(self.body)) }
                    writer.member("sub") { $0.string(self.vapidSubject) }
                    writer.member("urgency") { $0.string(self.urgency) }
                    writer.member("ttl") { $0.number(self.ttl) }
                    if let topic = self.topic { writer.member("topic") { $0.string(topic) } }
                }
            }
        }
        return APNsCore.Notification(
            apnsID: apnsID, uniqueID: uniqueID, token: self.subscription.token, topic: self.subscription.origin,
            pushType: .alert, priority: self.priority,
            // TTL 0: deliver now or never, as apns-expiration 0 (RFC 8030 §5.2).
            expiration: self.ttl == 0 ? 0 : receivedAt / 1000 + self.ttl, collapseID: self.topic, payload: writer.bytes,
            receivedAt: receivedAt, source: .webPush)
    }

    /// `Urgency` as APNs priorities: very-low as 1 (prioritize power), low as 5 (conserve
    /// power), normal and high as 10 (RFC 8030 §5.3's grades onto apns-priority's).
    var priority: Priority {
        switch self.urgency {
        case "very-low": return .prioritizePower
        case "low": return .conservePower
        default: return .immediate
        }
    }

    static func base64URL(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}

extension WebPushIntake {
    /// Checks a push as Apple's push service does; the push, or the answer refusing it.
    static func validate(
        _ request: WebPushRequest, _ subscription: WebAppSubscription?, nowMillis: Int64
    ) -> Result<ValidWebPush, WebPushRefusal> {
        guard request.method == "POST" else {
            return .failure(
                WebPushRefusal(
                    status: 405, reason: "MethodNotAllowed", explanation: "a push is a POST to the endpoint (RFC 8030 §5)"))
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
        guard !request.bodyTooLong, request.body.count <= Self.maximumBody else {
            return .failure(
                WebPushRefusal(
                    status: 413, reason: "PayloadTooLarge",
                    explanation: "the encrypted body is larger than \(Self.maximumBody) bytes (RFC 8030 §7.2; APNs' limit)"))
        }
        return Self.fields(request).map { ttl, urgency, topic in
            ValidWebPush(
                subscription: subscription, ttl: ttl, urgency: urgency, topic: topic, body: request.body,
                vapidSubject: credential.subject)
        }
    }

    /// `TTL`, `Urgency`, `Topic` and the content coding (RFC 8030 §5.2–5.4, RFC 8291 §4).
    static func fields(_ request: WebPushRequest) -> Result<(Int64, String, String?), WebPushRefusal> {
        guard let ttlText = request.headers["ttl"] else {
            return .failure(
                .badRequest("BadExpirationDate", "the TTL header is missing: an application server MUST send it (RFC 8030 §5.2)"))
        }
        guard let ttl = Int64(ttlText.trimmingCharacters(in: .whitespaces)), ttl >= 0 else {
            return .failure(
                .badRequest("BadExpirationDate", "TTL is a number of seconds from 0 (RFC 8030 §5.2); got \(ttlText.prefix(40))"))
        }
        let urgency = request.headers["urgency"]?.lowercased() ?? "normal"
        guard ["very-low", "low", "normal", "high"].contains(urgency) else {
            return .failure(
                .badRequest("BadPriority", "Urgency is very-low, low, normal or high (RFC 8030 §5.3); got \(urgency.prefix(40))"))
        }
        let topic = request.headers["topic"]
        if let topic, topic.isEmpty || topic.utf8.count > 32 || !topic.utf8.allSatisfy(Self.isBase64URL) {
            return .failure(
                .badRequest(
                    "BadCollapseId", "Topic is at most 32 characters of the URL-safe base64 alphabet (RFC 8030 §5.4)"))
        }
        if !request.body.isEmpty {
            let coding = request.headers["content-encoding"]?.lowercased()
            guard coding == "aes128gcm" else {
                return .failure(
                    .badRequest(
                        "BadContentEncoding",
                        "a push with a body is encrypted with Content-Encoding: aes128gcm (RFC 8291 §4); got \(coding ?? "none")")
                )
            }
            guard request.body.count > 86 else {
                return .failure(
                    .badRequest(
                        "BadContentEncoding",
                        "the body is shorter than an aes128gcm header with the application server's key (86 bytes, RFC 8291 §4)"))
            }
        }
        return .success((min(ttl, Self.longestTTL), urgency, topic))
    }

    static func isBase64URL(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || byte == 0x2D
            || byte == 0x5F
    }
}

/// Why APNs refused a request: the wire string of the JSON `reason` and the HTTP status it goes with.
///
/// An open-enum struct: every reason Apple documents is a `static let` in the one table below,
/// so a reason's string and its status are never written down twice.
public struct Reason: Error, Hashable, Sendable, CustomStringConvertible {
    /// The string APNs puts in `{"reason": ...}`.
    public let wire: String
    /// The HTTP status APNs answers with.
    public let status: Int
    /// What the reason means, for a person (the `apns-emulator-detail` header when the check that
    /// refused says nothing more specific).
    public let explanation: String

    public init(wire: String, status: Int, explanation: String = "") {
        self.wire = wire
        self.status = status
        self.explanation = explanation
    }

    public var description: String { "\(self.status) \(self.wire)" }

    /// The same reason, explained for this case (which key, which claim): the wire string and
    /// status stay, so it is still the same reason.
    public func explained(_ explanation: String) -> Reason {
        Reason(wire: self.wire, status: self.status, explanation: explanation)
    }

    /// A reason is its wire string and status; the explanation is only words about it.
    public static func == (lhs: Reason, rhs: Reason) -> Bool { lhs.wire == rhs.wire && lhs.status == rhs.status }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(self.wire)
        hasher.combine(self.status)
    }
}

extension Reason {
    // 400
    public static let badCollapseId = Reason(
        wire: "BadCollapseId", status: 400, explanation: "apns-collapse-id is longer than 64 bytes")
    public static let badDeviceToken = Reason(
        wire: "BadDeviceToken", status: 400,
        explanation:
            "the device token is not even-length hex of 32 to 100 bytes, or not one this emulator issued (--tokens registered), or for the other environment"
    )
    public static let badExpirationDate = Reason(
        wire: "BadExpirationDate", status: 400,
        explanation: "apns-expiration must be a non-negative integer: UNIX seconds, or 0 for now or never")
    public static let badMessageId = Reason(
        wire: "BadMessageId", status: 400, explanation: "apns-id must be a UUID in the form 8-4-4-4-12")
    public static let badPriority = Reason(wire: "BadPriority", status: 400, explanation: "apns-priority must be 10, 5 or 1")
    public static let badTopic = Reason(
        wire: "BadTopic", status: 400, explanation: "apns-topic is not one this provider may push to")
    public static let deviceTokenNotForTopic = Reason(
        wire: "DeviceTokenNotForTopic", status: 400, explanation: "the device token was registered for another topic")
    public static let duplicateHeaders = Reason(
        wire: "DuplicateHeaders", status: 400, explanation: "a header appears more than once")
    public static let idleTimeout = Reason(wire: "IdleTimeout", status: 400, explanation: "the connection sat idle too long")
    public static let invalidPushType = Reason(
        wire: "InvalidPushType", status: 400,
        explanation: "apns-push-type is not one APNs knows, or does not fit the topic's suffix")
    public static let missingDeviceToken = Reason(
        wire: "MissingDeviceToken", status: 400, explanation: "the path has no device token: POST /3/device/<token>")
    public static let missingTopic = Reason(
        wire: "MissingTopic", status: 400,
        explanation: "apns-topic is required here (token authentication, or a certificate for several topics)")
    public static let payloadEmpty = Reason(
        wire: "PayloadEmpty", status: 400, explanation: "the request has no payload: send a JSON object")
    public static let topicDisallowed = Reason(
        wire: "TopicDisallowed", status: 400, explanation: "the provider certificate does not cover this topic")
    // 403
    public static let badCertificate = Reason(
        wire: "BadCertificate", status: 403, explanation: "the client certificate is not one the emulator trusts")
    public static let badCertificateEnvironment = Reason(
        wire: "BadCertificateEnvironment", status: 403, explanation: "the client certificate is for the other environment")
    public static let expiredProviderToken = Reason(
        wire: "ExpiredProviderToken", status: 403,
        explanation: "the provider token's iat is more than an hour old: sign a new one")
    public static let forbidden = Reason(wire: "Forbidden", status: 403, explanation: "this provider may not do that")
    public static let invalidProviderToken = Reason(
        wire: "InvalidProviderToken", status: 403,
        explanation: "the provider token does not verify: its signature, kid, iss or shape is wrong")
    public static let missingProviderToken = Reason(
        wire: "MissingProviderToken", status: 403,
        explanation: "no client certificate and no authorization: bearer <provider token> header")
    public static let unrelatedKeyIdInToken = Reason(
        wire: "UnrelatedKeyIdInToken", status: 403, explanation: "the token's key id is not allowed for this topic")
    /// The spelling APNs sends on the wire, `BadEnvironmentKeyInToken` (seen by teams in production,
    /// directly and through FCM; APNSwift added it in 2025 as "returned by APNs"), though Apple's
    /// table of reasons, and the client libraries that copied it, spell it `BadEnvironmentKeyIdInToken`.
    public static let badEnvironmentKeyIdInToken = Reason(
        wire: "BadEnvironmentKeyInToken", status: 403, explanation: "the token's key is for the other environment")
    // 404, 405
    public static let badPath = Reason(wire: "BadPath", status: 404, explanation: "the path must be /3/device/<token>")
    public static let methodNotAllowed = Reason(wire: "MethodNotAllowed", status: 405, explanation: "only POST is taken")
    // 410
    public static let unregistered = Reason(
        wire: "Unregistered", status: 410,
        explanation: "the device token is no longer valid for the topic (timestamp says since when)")
    public static let expiredToken = Reason(
        wire: "ExpiredToken", status: 410, explanation: "the device token has expired (timestamp says since when)")
    // 413
    public static let payloadTooLarge = Reason(
        wire: "PayloadTooLarge", status: 413,
        explanation: "the payload is larger than its push type allows (4 KiB; 5 KiB for voip)")
    // 429
    public static let tooManyProviderTokenUpdates = Reason(
        wire: "TooManyProviderTokenUpdates", status: 429,
        explanation: "the provider token changed more than once in 20 minutes on this connection")
    public static let tooManyRequests = Reason(
        wire: "TooManyRequests", status: 429, explanation: "too many requests to one device token")
    // 500, 503
    public static let internalServerError = Reason(
        wire: "InternalServerError", status: 500, explanation: "the emulator failed inside")
    public static let serviceUnavailable = Reason(
        wire: "ServiceUnavailable", status: 503, explanation: "the emulator cannot take it now (its store is full or failing)")
    public static let shutdown = Reason(wire: "Shutdown", status: 503, explanation: "the emulator is shutting down")

    /// Every reason APNs documents for the HTTP/2 provider API.
    public static let all: [Reason] = [
        .badCollapseId, .badDeviceToken, .badExpirationDate, .badMessageId, .badPriority, .badTopic,
        .deviceTokenNotForTopic, .duplicateHeaders, .idleTimeout, .invalidPushType, .missingDeviceToken,
        .missingTopic, .payloadEmpty, .topicDisallowed,
        .badCertificate, .badCertificateEnvironment, .expiredProviderToken, .forbidden, .invalidProviderToken,
        .missingProviderToken, .unrelatedKeyIdInToken, .badEnvironmentKeyIdInToken,
        .badPath, .methodNotAllowed, .unregistered, .expiredToken, .payloadTooLarge,
        .tooManyProviderTokenUpdates, .tooManyRequests, .internalServerError, .serviceUnavailable, .shutdown,
    ]

    /// The reason with this wire string, if APNs documents one (for the provider API or for
    /// channels and broadcasts).
    public init?(wire: String) {
        guard let found = Reason.all.first(where: { $0.wire == wire }) ?? Reason.broadcast.first(where: { $0.wire == wire })
        else { return nil }
        self = found
    }

    /// The reason a fault rule answers with: APNs' own with its status (or the rule's), or a
    /// made-up one with the rule's status, 500 when the rule gives none.
    public static func injected(wire: String, status: Int?) -> Reason {
        Reason(wire: wire, status: status ?? Reason(wire: wire)?.status ?? 500)
    }
}

/// Why APNs refused a request: the wire string of the JSON `reason` and the HTTP status it goes with.
///
/// An open-enum struct: every reason Apple documents is a `static let` in the one table below,
/// so a reason's string and its status are never written down twice.
public struct Reason: Error, Hashable, Sendable, CustomStringConvertible {
    /// The string APNs puts in `{"reason": ...}`.
    public let wire: String
    /// The HTTP status APNs answers with.
    public let status: Int

    public init(wire: String, status: Int) {
        self.wire = wire
        self.status = status
    }

    public var description: String { "\(self.status) \(self.wire)" }
}

extension Reason {
    // 400
    public static let badCollapseId = Reason(wire: "BadCollapseId", status: 400)
    public static let badDeviceToken = Reason(wire: "BadDeviceToken", status: 400)
    public static let badExpirationDate = Reason(wire: "BadExpirationDate", status: 400)
    public static let badMessageId = Reason(wire: "BadMessageId", status: 400)
    public static let badPriority = Reason(wire: "BadPriority", status: 400)
    public static let badTopic = Reason(wire: "BadTopic", status: 400)
    public static let deviceTokenNotForTopic = Reason(wire: "DeviceTokenNotForTopic", status: 400)
    public static let duplicateHeaders = Reason(wire: "DuplicateHeaders", status: 400)
    public static let idleTimeout = Reason(wire: "IdleTimeout", status: 400)
    public static let invalidPushType = Reason(wire: "InvalidPushType", status: 400)
    public static let missingDeviceToken = Reason(wire: "MissingDeviceToken", status: 400)
    public static let missingTopic = Reason(wire: "MissingTopic", status: 400)
    public static let payloadEmpty = Reason(wire: "PayloadEmpty", status: 400)
    public static let topicDisallowed = Reason(wire: "TopicDisallowed", status: 400)
    // 403
    public static let badCertificate = Reason(wire: "BadCertificate", status: 403)
    public static let badCertificateEnvironment = Reason(wire: "BadCertificateEnvironment", status: 403)
    public static let expiredProviderToken = Reason(wire: "ExpiredProviderToken", status: 403)
    public static let forbidden = Reason(wire: "Forbidden", status: 403)
    public static let invalidProviderToken = Reason(wire: "InvalidProviderToken", status: 403)
    public static let missingProviderToken = Reason(wire: "MissingProviderToken", status: 403)
    public static let unrelatedKeyIdInToken = Reason(wire: "UnrelatedKeyIdInToken", status: 403)
    public static let badEnvironmentKeyIdInToken = Reason(wire: "BadEnvironmentKeyIdInToken", status: 403)
    // 404, 405
    public static let badPath = Reason(wire: "BadPath", status: 404)
    public static let methodNotAllowed = Reason(wire: "MethodNotAllowed", status: 405)
    // 410
    public static let unregistered = Reason(wire: "Unregistered", status: 410)
    public static let expiredToken = Reason(wire: "ExpiredToken", status: 410)
    // 413
    public static let payloadTooLarge = Reason(wire: "PayloadTooLarge", status: 413)
    // 429
    public static let tooManyProviderTokenUpdates = Reason(wire: "TooManyProviderTokenUpdates", status: 429)
    public static let tooManyRequests = Reason(wire: "TooManyRequests", status: 429)
    // 500, 503
    public static let internalServerError = Reason(wire: "InternalServerError", status: 500)
    public static let serviceUnavailable = Reason(wire: "ServiceUnavailable", status: 503)
    public static let shutdown = Reason(wire: "Shutdown", status: 503)

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

    /// The reason with this wire string, if APNs documents one.
    public init?(wire: String) {
        guard let found = Reason.all.first(where: { $0.wire == wire }) else { return nil }
        self = found
    }

    /// The reason a fault rule answers with: APNs' own with its status (or the rule's), or a
    /// made-up one with the rule's status, 500 when the rule gives none.
    public static func injected(wire: String, status: Int?) -> Reason {
        Reason(wire: wire, status: status ?? Reason(wire: wire)?.status ?? 500)
    }
}

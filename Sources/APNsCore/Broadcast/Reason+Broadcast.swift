/// The reasons of the channel management and broadcast APIs (Apple, "Handling error responses
/// from APNs"), beside the provider API's own in ``Reason/all``. Reasons both APIs share
/// (PayloadEmpty, BadMessageId, BadPriority...) are the same rows of the one table.
extension Reason {
    public static let featureNotEnabled = Reason(
        wire: "FeatureNotEnabled", status: 400,
        explanation:
            "broadcast push is turned off for this bundle (PUT /api/v1/apps/<bundle>/broadcast {\"enabled\": true} turns it on)")
    public static let missingChannelId = Reason(
        wire: "MissingChannelId", status: 400, explanation: "the request needs an apns-channel-id header")
    public static let badChannelId = Reason(
        wire: "BadChannelId", status: 400, explanation: "apns-channel-id is not base64 (the form APNs hands out channel ids in)")
    public static let channelNotRegistered = Reason(
        wire: "ChannelNotRegistered", status: 400,
        explanation: "no channel with this id exists for this bundle in this environment (never created, or deleted)")
    public static let badRequestParams = Reason(
        wire: "BadRequestParams", status: 400,
        explanation: "the JSON body has an attribute APNs does not take here, or a value of the wrong kind")
    public static let badRequestPayload = Reason(
        wire: "BadRequestPayload", status: 400, explanation: "the body is not a JSON object")
    public static let missingPushType = Reason(
        wire: "MissingPushType", status: 400, explanation: "the request must say its push type: LiveActivity")
    public static let cannotCreateChannelConfig = Reason(
        wire: "CannotCreateChannelConfig", status: 400,
        explanation: "the bundle already has the most channels APNs keeps per environment (10,000): delete some first")
    public static let topicMismatch = Reason(
        wire: "TopicMismatch", status: 403, explanation: "the provider key or certificate does not cover this bundle id")

    /// Every reason the channel management and broadcast APIs answer with.
    public static let broadcast: [Reason] = [
        .featureNotEnabled, .missingChannelId, .badChannelId, .channelNotRegistered, .badRequestParams, .badRequestPayload,
        .payloadEmpty, .badMessageId, .missingPushType, .invalidPushType, .cannotCreateChannelConfig, .badExpirationDate,
        .topicDisallowed, .badPriority,
        .badCertificate, .badCertificateEnvironment, .topicMismatch, .missingProviderToken, .expiredProviderToken,
        .invalidProviderToken,
        .badPath, .methodNotAllowed, .payloadTooLarge, .tooManyRequests, .tooManyProviderTokenUpdates,
        .internalServerError, .serviceUnavailable, .shutdown,
    ]
}

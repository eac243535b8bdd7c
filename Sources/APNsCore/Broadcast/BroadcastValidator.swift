/// Checks a channel management or broadcast request's headers and body as APNs does, as pure
/// functions; what depends on the channels themselves (does it exist, its policy, the bundle's
/// capability) is decided by whoever keeps them.
public enum BroadcastValidator {
    /// The largest broadcast payload: 5 KB ("Sending broadcast push notification requests to APNs").
    public static let largestPayload = 5120

    /// `apns-request-id`: echoed when the provider sent a UUID, made when it sent none;
    /// anything else is `BadMessageId`.
    public static func requestID(_ supplied: String?, generate: () -> String) -> Result<String, Reason> {
        guard let supplied else { return .success(generate()) }
        guard APNsID.isCanonical(supplied) else {
            return .failure(Reason.badMessageId.explained("apns-request-id must be a UUID in the form 8-4-4-4-12"))
        }
        return .success(supplied)
    }

    /// A broadcast's headers and payload. Checked in this order: channel id, push type,
    /// priority, expiration, then the payload.
    public static func publish(_ request: PushRequest, requestID: String) -> Result<BroadcastPush, Rejection> {
        func refuse(_ reason: Reason, _ detail: String? = nil) -> Result<BroadcastPush, Rejection> {
            .failure(Rejection(reason: reason, apnsID: requestID, detail: detail))
        }
        if request.hasDuplicateHeaders { return refuse(.duplicateHeaders) }
        let channelID: String
        switch ChannelID.validate(request.channelID) {
        case .success(let id): channelID = id
        case .failure(let reason): return refuse(reason)
        }
        guard let pushType = request.pushType, !pushType.isEmpty else {
            return refuse(.missingPushType, "apns-push-type is required on a broadcast: LiveActivity")
        }
        guard ChannelConfiguration.isLiveActivity(pushType) else {
            return refuse(.invalidPushType, "a broadcast's apns-push-type is LiveActivity, not \(pushType.prefix(40))")
        }
        guard let priorityText = request.priority, let number = UInt8(priorityText), let priority = Priority(rawValue: number)
        else {
            return refuse(.badPriority, "apns-priority is required on a broadcast: 10, 5 or 1")
        }
        guard let expirationText = request.expiration, !expirationText.isEmpty,
            expirationText.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
            let expiration = Int64(expirationText)
        else {
            return refuse(.badExpirationDate, "apns-expiration is required on a broadcast: UNIX seconds, or 0")
        }
        if request.bodyLength == 0 { return refuse(.payloadEmpty) }
        if request.bodyLength > Self.largestPayload {
            return refuse(
                .payloadTooLarge, "payload is \(request.bodyLength) bytes; a broadcast takes at most \(Self.largestPayload)")
        }
        if let problem = JSONObjectValidator.problem(in: request.body) {
            return refuse(.badRequestPayload, "payload is not a JSON object: \(problem)")
        }
        return .success(
            BroadcastPush(
                requestID: requestID, channelID: channelID, priority: priority, expiration: expiration, payload: request.body))
    }

    /// Whether a channel of `policy` takes a broadcast expiring at `expiration`: policy 0
    /// stores nothing, so only 0 ("now or never") makes sense.
    public static func expirationRefusal(_ expiration: Int64, policy: Int) -> Reason? {
        guard policy == 0, expiration != 0 else { return nil }
        return Reason.badExpirationDate.explained(
            "the channel stores no message (message-storage-policy 0): apns-expiration must be 0")
    }
}

/// A channel's configuration as a provider creates it: `{"message-storage-policy": 0|1,
/// "push-type": "LiveActivity"}` (Apple, "Sending channel management requests to APNs").
public struct ChannelConfiguration: Hashable, Sendable {
    /// 0: no message is stored; 1: the most recent message is stored (up to 8 hours).
    public var storagePolicy: Int
    /// As Apple spells it: `LiveActivity`, the only push type channels carry.
    public var pushType: String

    public static let liveActivity = "LiveActivity"

    public init(storagePolicy: Int, pushType: String = ChannelConfiguration.liveActivity) {
        self.storagePolicy = storagePolicy
        self.pushType = pushType
    }

    /// Whether `value` names the Live Activity push type. Apple's prose spells it `LiveActivity`,
    /// its provider API and clients `liveactivity` (@parse/node-apn 7 sends that in the body,
    /// working servers in the broadcast header): the case is not compared.
    public static func isLiveActivity(_ value: String) -> Bool {
        value.lowercased() == "liveactivity"
    }

    /// Reads a create request's body. A policy given as the string "0" or "1" (as @parse/node-apn
    /// 7 documents) is taken, with a warning: Apple documents a number.
    public static func parse(_ body: [UInt8]) -> Result<(ChannelConfiguration, warnings: [String]), Rejection> {
        func refuse(_ reason: Reason, _ detail: String) -> Result<(ChannelConfiguration, warnings: [String]), Rejection> {
            .failure(Rejection(reason: reason, apnsID: "", detail: detail))
        }
        if body.isEmpty {
            return refuse(
                .payloadEmpty,
                "a channel is created with a body: {\"message-storage-policy\": 0 or 1, \"push-type\": \"LiveActivity\"}")
        }
        guard case .object(let members)? = JSONValue.parse(body) else {
            return refuse(.badRequestPayload, "the body is not a JSON object")
        }
        if let unknown = members.keys.sorted().first(where: { $0 != "message-storage-policy" && $0 != "push-type" }) {
            return refuse(
                .badRequestParams,
                "unknown attribute \"\(unknown.prefix(80))\": a channel takes message-storage-policy and push-type")
        }
        guard let pushType = members["push-type"] else {
            return refuse(.missingPushType, "push-type is required: \"LiveActivity\"")
        }
        guard let name = pushType.string, Self.isLiveActivity(name) else {
            return refuse(.invalidPushType, "push-type must be \"LiveActivity\", the only push type channels carry")
        }
        var warnings: [String] = []
        let policy: Int
        switch members["message-storage-policy"] {
        case .number(let number) where number == 0 || number == 1:
            policy = Int(number)
        case .string(let text) where text == "0" || text == "1":
            policy = Int(text) ?? 0
            warnings.append(
                PushWarning("message-storage-policy-string", "message-storage-policy is the string \"\(text)\"; Apple documents a number (0 or 1)")
                    .description)
        case nil:
            return refuse(
                .badRequestParams,
                "message-storage-policy is required: 0 (no message stored) or 1 (the most recent message stored)")
        default:
            return refuse(
                .badRequestParams, "message-storage-policy must be 0 (no message stored) or 1 (the most recent message stored)")
        }
        return .success((ChannelConfiguration(storagePolicy: policy), warnings))
    }
}

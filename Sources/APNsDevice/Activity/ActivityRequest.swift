/// The app's `Activity.request`: which type, and whether it wants an update token. The
/// attributes and the content state are decoded separately, with the declared type.
///
/// Document: `{"attributes-type": "Delivery", "attributes": {...}, "content-state": {...},
/// "pushType": "token", "stale-date": 1700000000, "relevance-score": 50}`; iOS 26's scheduled
/// request (`request(...style:alertConfiguration:start:)`) adds `"start": 1700003600`,
/// `"alertConfiguration": {"title", "body", "sound"}` and `"style": "standard" | "transient"`.
public struct ActivityRequest: Decodable, Hashable, Sendable {
    public var attributesType: String
    /// `"token"` for an update token, `"channel"` for a broadcast subscription
    /// (`{"channel": "<id>"}` in the document, ActivityKit's `.channel(id)`); nil for none.
    public var pushType: String?
    /// The channel of a `.channel(id)` push type.
    public var channelID: String?
    /// UNIX seconds.
    public var staleDate: Double?
    public var relevanceScore: Double?
    /// When a scheduled activity starts, UNIX seconds (iOS 26).
    public var start: Double?
    /// What a scheduled activity alerts with when it starts.
    public var alertConfiguration: ActivityAlert?
    public var style: ActivityStyle?

    private enum CodingKeys: String, CodingKey, CaseIterable {
        case attributesType = "attributes-type"
        case attributes
        case contentState = "content-state"
        case pushType
        case staleDate = "stale-date"
        case relevanceScore = "relevance-score"
        case start, alertConfiguration, style
    }

    public init(attributesType: String, pushType: String? = nil) {
        self.attributesType = attributesType
        self.pushType = pushType
    }

    public init(from decoder: any Decoder) throws {
        try decoder.refuseUnknown(CodingKeys.self, in: "an activity request")
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.attributesType = try container.decode(String.self, forKey: .attributesType)
        if let channel = try? container.decodeIfPresent(ChannelPushType.self, forKey: .pushType) {
            self.pushType = "channel"
            self.channelID = channel.channel
        } else {
            self.pushType = try container.decodeIfPresent(String.self, forKey: .pushType)
        }
        self.staleDate = try container.decodeIfPresent(Double.self, forKey: .staleDate)
        self.relevanceScore = try container.decodeIfPresent(Double.self, forKey: .relevanceScore)
        self.start = try container.decodeIfPresent(Double.self, forKey: .start)
        self.alertConfiguration = try container.decodeIfPresent(AlertConfiguration.self, forKey: .alertConfiguration)?.alert
        if let style = try container.decodeIfPresent(String.self, forKey: .style) {
            guard let known = ActivityStyle(rawValue: style) else {
                throw DeviceModelError(
                    .invalid, field: "style",
                    "style is \"standard\" or \"transient\" (ActivityKit's ActivityStyle), not \"\(style)\"")
            }
            self.style = known
        }
        if self.start != nil && self.alertConfiguration == nil {
            throw DeviceModelError(
                .invalid, field: "alertConfiguration",
                "a scheduled request (start) needs an alertConfiguration: ActivityKit's request(...alertConfiguration:start:) takes one, the alert it plays when it starts"
            )
        }
        if let pushType, pushType != "token", pushType != "channel" || self.channelID == nil {
            throw DeviceModelError(
                .invalid, field: "pushType",
                "pushType is \"token\", {\"channel\": \"<channel id>\"} or null (ActivityKit's PushType.token and .channel(id)), not \"\(pushType)\""
            )
        }
        for key in [CodingKeys.attributes, .contentState] where !container.contains(key) {
            throw DeviceModelError(.invalid, field: key.rawValue, "an activity request needs \(key.rawValue)")
        }
    }
}

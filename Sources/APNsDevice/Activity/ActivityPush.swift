import APNsCore

/// What a `liveactivity` push's `aps` asks of the phone, read as ActivityKit reads it. Nothing is
/// refused here: the phone decides what to do with a push APNs already answered 200.
public struct ActivityPush: Hashable, Sendable {
    /// `start`, `update` or `end` (anything else is kept to be reported).
    public var event: String?
    /// `timestamp`: UNIX seconds when the provider made the update.
    public var timestamp: Double?
    /// `stale-date` and `dismissal-date`: UNIX seconds.
    public var staleDate: Double?
    public var dismissalDate: Double?
    public var relevanceScore: Double?
    public var alert: ActivityAlert?
    public var attributesType: String?
    public var hasContentState: Bool
    public var hasAttributes: Bool
    /// `input-push-token: 1`: a push-to-start asks for the new activity's update token (iOS 18).
    public var inputPushToken: Bool
    /// `input-push-channel`: a push-to-start subscribes the new activity to a channel (iOS 18).
    public var inputPushChannel: String?
    /// The whole payload, for decoding `attributes` and `content-state` with the declared types.
    public var payload: [UInt8]
    public var priority: Int

    public static let start = "start"
    public static let update = "update"
    public static let end = "end"

    /// Reads a payload; a payload that is not a JSON object (APNs refuses those) has no fields.
    public init(payload: [UInt8], priority: Int) {
        self.payload = payload
        self.priority = priority
        let aps = JSONValue.member("aps", ofObjectIn: payload) ?? .null
        self.event = aps["event"]?.string
        self.timestamp = aps["timestamp"]?.number
        self.staleDate = aps["stale-date"]?.number
        self.dismissalDate = aps["dismissal-date"]?.number
        self.relevanceScore = aps["relevance-score"]?.number
        self.alert = ActivityAlert(aps["alert"])
        self.attributesType = aps["attributes-type"]?.string
        self.hasContentState = aps["content-state"] != nil
        self.hasAttributes = aps["attributes"] != nil
        self.inputPushToken = aps["input-push-token"]?.isOne ?? false
        self.inputPushChannel = aps["input-push-channel"]?.string
    }
}

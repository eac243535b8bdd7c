import APNsCore

/// One subscribed activity's outcome of a broadcast.
public struct BroadcastActivityOutcome: Sendable {
    public var deviceID: String
    public var activityID: String
    public var outcome: String
    public var code: String?
    public var reason: String?

    public init(deviceID: String, activityID: String, outcome: String, code: String?, reason: String?) {
        self.deviceID = deviceID
        self.activityID = activityID
        self.outcome = outcome
        self.code = code
        self.reason = reason
    }
}

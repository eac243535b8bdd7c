import APNsCore
import APNsDevice

/// One subscribed activity's outcome of a broadcast, as the journal keeps it and a shard tells
/// the shard that published it (the same fields on the wire).
public struct BroadcastActivityOutcome: Codable, Sendable {
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

    /// What the phone made of a broadcast for one of `deviceID`'s activities.
    public init(deviceID: String, _ reached: BroadcastOutcome) {
        self.init(
            deviceID: deviceID, activityID: reached.activityID, outcome: reached.outcome.outcome.rawValue,
            code: reached.outcome.code, reason: reached.reason)
    }
}

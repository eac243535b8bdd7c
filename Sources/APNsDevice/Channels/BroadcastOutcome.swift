/// What one subscribed activity made of a broadcast.
public struct BroadcastOutcome: Hashable, Sendable {
    public var activityID: String
    public var outcome: ActivityOutcome
    public var reason: String?

    public init(activityID: String, outcome: ActivityOutcome, reason: String?) {
        self.activityID = activityID
        self.outcome = outcome
        self.reason = reason
    }
}

/// One change to an activity, as the event stream tells it: `started`, `updated`, `ignored`,
/// `stale`, `ended`, `dismissed`, `token`.
public struct ActivityChange: Hashable, Sendable {
    public var activityID: String
    public var change: String
    public var state: ActivityState

    public init(_ activityID: String, _ change: String, _ state: ActivityState) {
        self.activityID = activityID
        self.change = change
        self.state = state
    }
}

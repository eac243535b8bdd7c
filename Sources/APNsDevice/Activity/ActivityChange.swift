/// One change to an activity, as the event stream tells it.
public struct ActivityChange: Hashable, Sendable {
    /// What changed, as the event stream and the device protocol name it.
    public enum Kind: String, Hashable, Sendable {
        case scheduled
        case started
        case updated
        case ignored
        case stale
        case ended
        case dismissed
        /// A new update token (the event carries it).
        case token
    }

    public var activityID: String
    public var change: Kind
    public var state: ActivityState

    public init(_ activityID: String, _ change: Kind, _ state: ActivityState) {
        self.activityID = activityID
        self.change = change
        self.state = state
    }
}

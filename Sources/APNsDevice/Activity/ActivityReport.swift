/// Where a Live Activity push went: the app's push-to-start token, or one activity's update token.
public enum ActivityTarget: Hashable, Sendable {
    case pushToStart
    case activity(String)
}

/// What the phone did with one Live Activity push (or the app's own request): the outcome for
/// the journal, every change to an activity for the event stream, and the tokens that came or
/// went (for the store and for the app).
public struct ActivityReport: Hashable, Sendable {
    /// The push's `event` (`start`, `update`, `end`), or what the app did.
    public var event: String
    public var outcome: ActivityOutcome
    /// Why it was ignored or not started, for people.
    public var reason: String?
    /// The activity it concerned, when there is one.
    public var activityID: String?
    public var changes: [ActivityChange] = []
    public var tokens: [ActivityTokenChange] = []
    /// The alert it lit the screen with, and the sound the user's settings let it play.
    public var alert: ActivityAlert?
    /// How that alert showed, as a notification's presentation.
    public var presentation: Presentation?

    public init(event: String, outcome: ActivityOutcome, reason: String? = nil, activityID: String? = nil) {
        self.event = event
        self.outcome = outcome
        self.reason = reason
        self.activityID = activityID
    }
}

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

/// A token issued or withdrawn: the app's push-to-start token or an activity's update token.
/// `replaced` is the token it supersedes, which stops being valid.
public struct ActivityTokenChange: Hashable, Sendable {
    public var kind: Kind
    public var activityID: String?
    public var token: String
    public var replaced: String?

    public enum Kind: String, Hashable, Sendable {
        case pushToStart, update
    }

    public init(_ kind: Kind, activityID: String?, token: String, replaced: String? = nil) {
        self.kind = kind
        self.activityID = activityID
        self.token = token
        self.replaced = replaced
    }
}

/// When the pushes that draw from an app's budgets arrived, within the last hour.
public struct ActivityBudget: Codable, Hashable, Sendable {
    /// Priority 10 updates and ends.
    public var updates: [Int64] = []
    public var pushToStart: [Int64] = []

    public init() {}

    static let window: Int64 = 3_600_000

    /// Draws one from a budget of `limit` per hour: false when it is spent.
    mutating func spend(_ times: WritableKeyPath<ActivityBudget, [Int64]>, limit: Int, at now: Int64) -> Bool {
        self[keyPath: times].removeAll { $0 <= now - Self.window }
        guard self[keyPath: times].count < limit else { return false }
        self[keyPath: times].append(now)
        return true
    }
}

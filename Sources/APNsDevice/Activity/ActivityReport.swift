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

import APNsCore

/// One thing that happened to an activity: a push (applied or ignored, and why), the app's own
/// start or end, or the clock (stale, ended, dismissed).
public struct ActivityHistoryItem: Codable, Hashable, Sendable {
    public var at: Int64
    /// `start`, `update`, `end` (a push's or the app's), `stale`, `dismissed`, `token`.
    public var event: String
    /// `applied`, `ignored`, `started`, `not started`, or what the clock did.
    public var outcome: String
    /// A refusal's code (`stale-timestamp`, `budget-exceeded`...).
    public var code: String?
    /// Why, in words, when it was ignored or not started.
    public var reason: String?
    /// The push's `apns-unique-id`, when a push did it.
    public var uniqueID: String?
    public var priority: Int?

    public init(
        at: Int64, event: String, outcome: ActivityOutcome, reason: String? = nil, uniqueID: String? = nil, priority: Int? = nil
    ) {
        self.at = at
        self.event = event
        self.outcome = outcome.outcome.rawValue
        self.code = outcome.code
        self.reason = reason
        self.uniqueID = uniqueID
        self.priority = priority
    }

    private enum CodingKeys: String, CodingKey {
        case at, event, outcome, code, reason
        case uniqueID = "uniqueId"
        case priority
    }
}

import APNsCore

/// What the phone did with a Live Activity push or an app's request: `applied`, `ignored`,
/// `started`, `not started`, with a code for machines (`stale-timestamp`, `budget-exceeded`...).
public struct ActivityOutcome: Codable, Hashable, Sendable {
    public var outcome: String
    public var code: String?

    public init(_ outcome: String, code: String? = nil) {
        self.outcome = outcome
        self.code = code
    }

    public static let applied = ActivityOutcome("applied")
    public static let started = ActivityOutcome("started")
    public static func ignored(_ code: String) -> ActivityOutcome { ActivityOutcome("ignored", code: code) }
    public static func notStarted(_ code: String) -> ActivityOutcome { ActivityOutcome("not started", code: code) }
}

/// What ActivityKit made of a push or a request for a Live Activity, with the reason's code when
/// it ignored it or did not start one.
public struct ActivityOutcome: Codable, Hashable, Sendable {
    /// The outcome, as the journal, the event stream and the metrics name it.
    public enum Kind: String, Codable, Hashable, Sendable {
        case applied
        case started
        case ignored
        case notStarted = "not started"
        case scheduled
        /// A broadcast the channel keeps for an activity whose device is offline.
        case waiting
        case stale
        case dismissed
        case ended
        case token
        case settings
        /// The emulator's clock moved it on (stale, dismissed).
        case clock
    }

    public var outcome: Kind
    public var code: String?

    public init(_ outcome: Kind, code: String? = nil) {
        self.outcome = outcome
        self.code = code
    }

    public static let applied = ActivityOutcome(.applied)
    public static let started = ActivityOutcome(.started)
    public static func ignored(_ code: String) -> ActivityOutcome { ActivityOutcome(.ignored, code: code) }
    public static func notStarted(_ code: String) -> ActivityOutcome { ActivityOutcome(.notStarted, code: code) }
}

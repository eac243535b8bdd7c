import APNsCore

/// What the phone did with a Live Activity push, kept on its journal entry (`activity`).
/// Immutable, like the entry's other records.
public final class ActivityRecord: Sendable {
    public let id: String?
    public let event: String
    /// `applied`, `ignored`, `started` or `not started`.
    public let outcome: String
    public let code: String?
    public let reason: String?

    public init(id: String?, event: String, outcome: String, code: String?, reason: String?) {
        self.id = id
        self.event = event
        self.outcome = outcome
        self.code = code
        self.reason = reason
    }

    /// The record as a journal item's `activity`.
    func write(into writer: inout JSONWriter) {
        writer.object { fields in
            fields.member("id") { $0.optionalString(self.id) }
            fields.member("event") { $0.string(self.event) }
            fields.member("outcome") { $0.string(self.outcome) }
            fields.member("code") { $0.optionalString(self.code) }
            fields.member("reason") { $0.optionalString(self.reason) }
        }
    }
}

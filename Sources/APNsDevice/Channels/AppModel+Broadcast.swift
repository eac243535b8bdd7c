/// What a broadcast does to an app's Live Activities: each running activity subscribed to the
/// channel takes it as it would an update pushed to its own token (timestamp order, decoding,
/// budgets), since iOS applies a channel's updates through the same ActivityKit path.
extension AppModel {
    /// The app's running activities subscribed to `channelID`.
    public func subscribers(of channelID: String) -> [String] {
        self.activities.filter { $0.isRunning && $0.channelID == channelID }.map(\.id)
    }

    /// Applies a broadcast on `channelID` to every subscribed activity (or, with `only`, to that
    /// one: a subscriber that just came, handed the channel's stored message). One report of
    /// every change, and each activity's outcome.
    public mutating func receiveBroadcast(
        _ push: ActivityPush, channelID: String, uniqueID: String, now: Int64, limits: ActivityLimits, only: String? = nil
    ) -> (report: ActivityReport, outcomes: [BroadcastOutcome]) {
        var merged = ActivityReport(event: push.event ?? "", outcome: .applied)
        var outcomes: [BroadcastOutcome] = []
        let targets = only.map { [$0] } ?? self.subscribers(of: channelID)
        for id in targets {
            let report = self.receive(push, at: .activity(id), uniqueID: uniqueID, now: now, limits: limits, issueToken: { "" })
            merged.changes += report.changes
            if merged.presentation == nil { merged.presentation = report.presentation }
            outcomes.append(BroadcastOutcome(activityID: id, outcome: report.outcome, reason: report.reason))
        }
        return (merged, outcomes)
    }
}

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

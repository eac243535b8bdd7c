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
        // As each activity would take it from its own token (``receive(_:at:uniqueID:now:limits:issueToken:channelExists:)``),
        // with what is the same for all of them done once: the clock's changes (stale, ended,
        // dismissed) before the first, the lookup of where each activity is, and the decoding of
        // the content state (once per attributes type): a broadcast reaches thousands at once.
        merged.changes = self.advanceActivities(to: now, limits: limits)
        var positions: [String: Int] = [:]
        positions.reserveCapacity(self.activities.count)
        for (index, activity) in self.activities.enumerated() where positions[activity.id] == nil {
            positions[activity.id] = index
        }
        let contentStates = ContentStateCache()
        for id in targets {
            let report = self.applyPush(
                push, to: id, uniqueID: uniqueID, now: now, limits: limits, hint: positions[id], contentStates: contentStates)
            // An end may have trimmed the list: the position is checked, and looked up again if moved.
            let hinted = positions[id].flatMap { $0 < self.activities.count && self.activities[$0].id == id ? $0 : nil }
            if report.activityID == id, let index = hinted ?? self.activities.firstIndex(where: { $0.id == id }) {
                self.activities[index].record(
                    ActivityHistoryItem(
                        at: now, event: report.event, outcome: report.outcome, reason: report.reason, uniqueID: uniqueID,
                        priority: push.priority))
            }
            merged.changes += report.changes
            if merged.presentation == nil { merged.presentation = report.presentation }
            outcomes.append(BroadcastOutcome(activityID: id, outcome: report.outcome, reason: report.reason))
        }
        return (merged, outcomes)
    }
}

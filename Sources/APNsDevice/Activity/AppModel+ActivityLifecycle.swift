/// A Live Activity's life on the emulator clock, and what the app itself does with its
/// activities (ActivityKit's `request`, `end`, `pushTokenUpdates`, `pushToStartToken`).
extension AppModel {
    /// The most activities kept per app; the oldest dismissed ones go first.
    public static let activitiesLimit = 50

    /// Moves every activity to where the clock says it is: `stale` at its stale date, `ended`
    /// 8 hours after it started, `dismissed` at its dismissal date. Returns what changed.
    public mutating func advanceActivities(to now: Int64, limits: ActivityLimits) -> [ActivityChange] {
        var changes: [ActivityChange] = []
        for index in self.activities.indices {
            let id = self.activities[index].id
            if self.activities[index].activityState == .pending, let start = self.activities[index].scheduledStart, start <= now {
                changes += self.startScheduled(index, at: start)
            }
            if self.activities[index].activityState == .active, let stale = self.activities[index].staleDate, stale <= now {
                self.activities[index].activityState = .stale
                self.activities[index].record(ActivityHistoryItem(at: stale, event: "stale", outcome: ActivityOutcome(.stale)))
                changes.append(ActivityChange(id, .stale, .stale))
            }
            let limit = self.activities[index].startedAt + limits.maximumDuration
            if self.activities[index].isRunning, limit <= now {
                changes += self.end(
                    index, at: limit, dismissal: nil, limits: limits, why: "the system ends an activity 8 hours after it started")
            }
            if self.activities[index].activityState == .ended, let dismissal = self.activities[index].dismissalDate,
                dismissal <= now
            {
                self.activities[index].activityState = .dismissed
                self.activities[index].record(
                    ActivityHistoryItem(at: dismissal, event: "dismissed", outcome: ActivityOutcome(.dismissed)))
                changes.append(ActivityChange(id, .dismissed, .dismissed))
            }
        }
        return changes
    }

    /// The earliest time the clock will change an activity, if any will.
    public func nextActivityChange(limits: ActivityLimits) -> Int64? {
        self.activities.compactMap { activity -> Int64? in
            switch activity.activityState {
            case .active: min(activity.staleDate ?? .max, activity.startedAt + limits.maximumDuration)
            case .stale: activity.startedAt + limits.maximumDuration
            case .ended: activity.dismissalDate
            case .dismissed: nil
            case .pending: activity.scheduledStart
            }
        }.min()
    }

    /// Ends the activity at `index` at `now`. A dismissal date in the past dismisses it at once;
    /// a later one dismisses it then, but no later than 4 hours after the end (ActivityKit's
    /// `ActivityUIDismissalPolicy`); none: 4 hours after the end. One that never started
    /// (pending) and a `transient` one leave at once: there is nothing on the Lock Screen to keep.
    mutating func end(
        _ index: Int, at now: Int64, dismissal: Int64?, limits: ActivityLimits, why: String? = nil
    ) -> [ActivityChange] {
        let id = self.activities[index].id
        let leavesAtOnce = self.activities[index].activityState == .pending || self.activities[index].style == .transient
        self.activities[index].activityState = .ended
        self.activities[index].endedAt = now
        let latest = now + limits.dismissalWindow
        self.activities[index].dismissalDate = leavesAtOnce ? now : min(dismissal ?? latest, latest)
        if why != nil {
            self.activities[index].record(
                ActivityHistoryItem(at: now, event: "ended", outcome: ActivityOutcome(.ended), reason: why))
        }
        var changes = [ActivityChange(id, .ended, .ended)]
        if let date = self.activities[index].dismissalDate, date <= now {
            self.activities[index].dismissalDate = now
            self.activities[index].activityState = .dismissed
            changes.append(ActivityChange(id, .dismissed, .dismissed))
        }
        return changes
    }

    /// A scheduled activity's start came: it is active from then, alerting with the alert it was
    /// scheduled with (its `alertConfiguration`), sounding only if the user allows the app's sounds.
    private mutating func startScheduled(_ index: Int, at start: Int64) -> [ActivityChange] {
        let id = self.activities[index].id
        self.activities[index].activityState = .active
        self.activities[index].startedAt = start
        if let alert = self.audible(self.activities[index].startAlert) {
            (self.activities[index].alert, self.activities[index].alertedAt) = (alert, start)
        }
        self.activities[index].record(
            ActivityHistoryItem(
                at: start, event: "started", outcome: .started,
                reason: "its scheduled start came; it alerted with its alertConfiguration"))
        return [ActivityChange(id, .started, .active)]
    }

    /// Adds a new activity, dropping the oldest dismissed ones past ``activitiesLimit``.
    mutating func keep(_ activity: LiveActivity) {
        self.activities.append(activity)
        while self.activities.count > Self.activitiesLimit,
            let oldest = self.activities.firstIndex(where: { $0.activityState == .dismissed })
        {
            self.activities.remove(at: oldest)
        }
    }

    /// The app's activities as the system orders them: running first, by relevance score (higher
    /// first), then newest first.
    public var orderedActivities: [LiveActivity] {
        self.activities.sorted { a, b in
            if a.isRunning != b.isRunning { return a.isRunning }
            if a.relevanceScore != b.relevanceScore { return a.relevanceScore > b.relevanceScore }
            return a.startedAt > b.startedAt
        }
    }

    /// Issues the app's push-to-start token when it can have one (iOS 17.2 or later, Live
    /// Activities declared) and has none yet.
    public mutating func ensurePushToStartToken(issueToken: () -> String) -> ActivityTokenChange? {
        guard self.pushToStartToken == nil, !self.activityTypes.isEmpty,
            let version = IOSVersion(self.iosVersion), version >= .pushToStart
        else { return nil }
        let token = issueToken()
        self.pushToStartToken = token
        return ActivityTokenChange(.pushToStart, activityID: nil, token: token)
    }

    /// The user turned Live Activities off: every running one ends and leaves at once.
    public mutating func dismissAllActivities(at now: Int64, limits: ActivityLimits) -> [ActivityChange] {
        var changes: [ActivityChange] = []
        for index in self.activities.indices where self.activities[index].isLive {
            changes += self.end(
                index, at: now, dismissal: now, limits: limits, why: "the user turned off Live Activities for the app")
        }
        return changes
    }
}

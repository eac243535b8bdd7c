import APNsCore

/// What the app does with its own Live Activities: `Activity.request`, `activity.end`, and a
/// token rotation (which a real device does on its own, and tests ask for).
extension AppModel {
    /// `Activity.request(attributes:content:pushType:)`: starts an activity in the app; with a
    /// `start` date (iOS 26's `request(...style:alertConfiguration:start:)`) it is `pending` until
    /// then (see ``advanceActivities(to:limits:)``), and alerts with its `alertConfiguration` when
    /// it starts. `json` holds `attributes` and `content-state` at the top level. Refused as
    /// ActivityKit refuses (`ActivityAuthorizationError`): Live Activities off, too many running
    /// or scheduled, an unknown type; or when the attributes or the content state do not decode.
    public mutating func startActivity(
        _ request: ActivityRequest, json: [UInt8], now: Int64, limits: ActivityLimits, issueToken: () -> String,
        channelExists: (String) -> Bool = { _ in true }
    ) throws(DeviceModelError) -> ActivityReport {
        let clockChanges = self.advanceActivities(to: now, limits: limits)
        let type = try self.checkRequest(request, channelExists: channelExists)
        let attributes = try Self.decoded(type.attributes, "attributes", json)
        let state = try Self.decoded(type.contentState, "content-state", json)
        // A scheduled activity counts toward the limit from its request: ActivityKit reserves
        // its place (a choice; Apple does not say), so it cannot fail to start for want of one.
        guard self.activities.filter(\.isLive).count < limits.maximumConcurrent else {
            throw DeviceModelError(
                .refused, field: "activities",
                "ActivityAuthorizationError.targetMaximumExceeded: the app already runs or has scheduled \(limits.maximumConcurrent) Live Activities"
            )
        }
        let scheduled = request.start.map(Self.millis).flatMap { $0 > now ? $0 : nil }
        var activity = LiveActivity(
            id: issueActivityID(), attributesType: request.attributesType, attributes: attributes, contentState: state,
            startedBy: "app", at: scheduled ?? now)
        activity.staleDate = request.staleDate.map(Self.millis)
        activity.relevanceScore = request.relevanceScore ?? 0
        activity.channelID = request.channelID
        activity.style = request.style
        var report = ActivityReport(event: ActivityPush.start, outcome: .started, activityID: activity.id)
        if let scheduled {
            activity.activityState = .pending
            activity.scheduledStart = scheduled
            activity.startAlert = request.alertConfiguration
            report.changes = clockChanges + [ActivityChange(activity.id, .scheduled, .pending)]
            activity.record(
                ActivityHistoryItem(
                    at: now, event: ActivityPush.start, outcome: ActivityOutcome(.scheduled),
                    reason: "scheduled in the app to start at \(Self.text(Double(scheduled) / 1000))"))
        } else {
            report.changes = clockChanges + [ActivityChange(activity.id, .started, .active)]
            if let alert = self.audible(request.alertConfiguration) {
                (activity.alert, activity.alertedAt, report.alert) = (alert, now, alert)
                report.presentation = self.lighting(alert)
            }
            activity.record(
                ActivityHistoryItem(at: now, event: ActivityPush.start, outcome: .started, reason: "started in the app"))
        }
        if request.pushType == "token" {
            let token = issueToken()
            activity.updateToken = token
            report.tokens.append(ActivityTokenChange(.update, activityID: activity.id, token: token))
            report.changes.append(ActivityChange(activity.id, .token, activity.activityState))
        }
        self.keep(activity)
        return report
    }

    /// What `Activity.request` checks before it reads the request's content: the iOS version,
    /// the user's switch, the declared type, a channel's existence.
    private func checkRequest(
        _ request: ActivityRequest, channelExists: (String) -> Bool
    ) throws(DeviceModelError) -> ActivityType {
        guard let version = IOSVersion(self.iosVersion), version >= .liveActivities else {
            throw DeviceModelError(
                .refused, field: "iosVersion",
                "ActivityAuthorizationError.unsupported: Live Activities need iOS 16.1; the phone runs \(self.iosVersion)")
        }
        if request.start != nil, version < .scheduledActivities {
            throw DeviceModelError(
                .refused, field: "start",
                "ActivityAuthorizationError.unsupported: a scheduled Live Activity (start) needs iOS 26; the phone runs \(self.iosVersion)"
            )
        }
        guard self.liveActivitiesEnabled else {
            throw DeviceModelError(
                .refused, field: "liveActivitiesEnabled",
                "ActivityAuthorizationError.denied: the user turned off Live Activities for this app")
        }
        guard let type = self.activityTypes[request.attributesType] else {
            throw DeviceModelError(
                .refused, field: "attributes-type",
                "the app declares no activity type \(request.attributesType); declare it in the app's activityTypes first")
        }
        if let channel = request.channelID {
            guard version >= .inputPush else {
                throw DeviceModelError(
                    .refused, field: "pushType",
                    "ActivityAuthorizationError.unsupported: a channel push type needs iOS 18; the phone runs \(self.iosVersion)")
            }
            guard channelExists(channel) else {
                throw DeviceModelError(
                    .refused, field: "pushType",
                    "no broadcast channel \(channel.prefix(80)) exists for this app: the activity does not start")
            }
        }
        return type
    }

    /// `activity.end(_:dismissalPolicy:)`: the app ends one of its activities, with a final
    /// content state (in `json`'s `content-state`) if it gives one.
    public mutating func endActivity(
        _ id: String, _ request: ActivityEndRequest, json: [UInt8], now: Int64, limits: ActivityLimits
    ) throws(DeviceModelError) -> ActivityReport {
        let clockChanges = self.advanceActivities(to: now, limits: limits)
        guard let index = self.activities.firstIndex(where: { $0.id == id }) else {
            throw DeviceModelError(.invalid, field: "id", "this app has no activity \(id)")
        }
        guard self.activities[index].isLive else {
            throw DeviceModelError(
                .refused, field: "activityState", "the activity already \(self.activities[index].activityState.rawValue)")
        }
        if request.hasContentState, let type = self.activityTypes[self.activities[index].attributesType] {
            self.activities[index].contentState = try Self.decoded(type.contentState, "content-state", json)
        }
        let dismissal: Int64? =
            switch request.dismissalPolicy {
            case .immediate: now
            case .after(let seconds): Self.millis(seconds)
            case .default: nil
            }
        var report = ActivityReport(event: ActivityPush.end, outcome: .applied, activityID: id)
        self.activities[index].record(
            ActivityHistoryItem(at: now, event: ActivityPush.end, outcome: .applied, reason: "ended in the app"))
        report.changes = clockChanges + self.end(index, at: now, dismissal: dismissal, limits: limits)
        return report
    }

    /// Gives a running activity a new update token; the old one stops being valid.
    public mutating func rotateActivityToken(
        _ id: String, now: Int64, issueToken: () -> String
    ) throws(DeviceModelError) -> ActivityTokenChange {
        guard let index = self.activities.firstIndex(where: { $0.id == id }) else {
            throw DeviceModelError(.invalid, field: "id", "this app has no activity \(id)")
        }
        guard self.activities[index].isRunning, let old = self.activities[index].updateToken else {
            throw DeviceModelError(
                .refused, field: "updateToken", "only a running activity with an update token (pushType token) gets a new one")
        }
        let token = issueToken()
        self.activities[index].updateToken = token
        self.activities[index].record(
            ActivityHistoryItem(
                at: now, event: "token", outcome: ActivityOutcome(.token), reason: "a new update token replaced the old one"))
        return ActivityTokenChange(.update, activityID: id, token: token, replaced: old)
    }

    /// Gives the app a new push-to-start token; the old one stops being valid.
    public mutating func rotatePushToStartToken(issueToken: () -> String) throws(DeviceModelError) -> ActivityTokenChange {
        guard let old = self.pushToStartToken else {
            throw DeviceModelError(
                .refused, field: "pushToStartToken",
                "the app has no push-to-start token (it needs iOS 17.2 and a declared activity type)")
        }
        let token = issueToken()
        self.pushToStartToken = token
        return ActivityTokenChange(.pushToStart, activityID: nil, token: token, replaced: old)
    }

    static func decoded(_ fields: [ActivityField], _ member: String, _ json: [UInt8]) throws(DeviceModelError) -> JSONValue {
        switch ActivityDecoder.decode(fields, at: [member], in: json) {
        case .success(let value): return value
        case .failure(let error): throw DeviceModelError(.invalid, field: error.path, "unable to decode \(member): \(error)")
        }
    }
}

import APNsCore
import Foundation

/// What a Live Activity push does on the phone, after APNs answered 200: it starts an activity,
/// changes one, or is ignored with a reason, as ActivityKit decides.
extension AppModel {
    /// Applies a push that arrived at `target` at `now`. The clock's own changes (stale, ended,
    /// dismissed) come first, so a push meets the activity as it is now.
    public mutating func receive(
        _ push: ActivityPush,
        at target: ActivityTarget,
        uniqueID: String,
        now: Int64,
        limits: ActivityLimits,
        issueToken: () -> String,
        channelExists: (String) -> Bool = { _ in true }
    ) -> ActivityReport {
        let clockChanges = self.advanceActivities(to: now, limits: limits)
        var report: ActivityReport
        switch target {
        case .pushToStart:
            report = self.startByPush(
                push, uniqueID: uniqueID, now: now, limits: limits, issueToken: issueToken, channelExists: channelExists)
        case .activity(let id): report = self.applyPush(push, to: id, uniqueID: uniqueID, now: now, limits: limits)
        }
        report.changes.insert(contentsOf: clockChanges, at: 0)
        if let id = report.activityID, let index = self.activities.firstIndex(where: { $0.id == id }) {
            self.activities[index].record(
                ActivityHistoryItem(
                    at: now, event: report.event, outcome: report.outcome, reason: report.reason, uniqueID: uniqueID,
                    priority: push.priority))
        }
        return report
    }

    /// A push to the push-to-start token: a new activity, if everything it needs is there.
    mutating func startByPush(
        _ push: ActivityPush, uniqueID: String, now: Int64, limits: ActivityLimits, issueToken: () -> String,
        channelExists: (String) -> Bool
    ) -> ActivityReport {
        let event = push.event ?? ""
        func refuse(_ code: String, _ reason: String) -> ActivityReport {
            ActivityReport(event: event, outcome: .notStarted(code), reason: reason)
        }
        guard event == ActivityPush.start else {
            return refuse(
                "not-start-event",
                "a push-to-start token only starts activities; this push's event is \(push.event.map { "\"\($0)\"" } ?? "missing"), not \"start\""
            )
        }
        guard let version = IOSVersion(self.iosVersion), version >= .pushToStart else {
            return refuse("unsupported-ios", "push-to-start needs iOS 17.2 or later; the phone runs \(self.iosVersion)")
        }
        guard self.liveActivitiesEnabled else {
            return refuse("live-activities-disabled", "the user turned off Live Activities for this app")
        }
        guard self.activityBudget.spend(\.pushToStart, limit: limits.pushToStartHourlyBudget, at: now) else {
            return refuse(
                "push-to-start-budget-exceeded",
                "push-to-start budget exceeded (\(limits.pushToStartHourlyBudget) an hour): not starting the activity")
        }
        guard let typeName = push.attributesType else {
            return refuse(
                "missing-attributes-type", "a start needs attributes-type, the name of the app's ActivityAttributes type")
        }
        guard let type = self.activityTypes[typeName] else {
            let known = self.activityTypes.keys.sorted().joined(separator: ", ")
            return refuse(
                "unknown-attributes-type",
                "the app declares no activity type \(typeName) (it declares \(known.isEmpty ? "none" : known))")
        }
        if let channel = push.inputPushChannel {
            // A broadcast subscription is iOS 18's; the channel must exist (APNs refuses to subscribe otherwise).
            guard version >= .inputPush else {
                return refuse("unsupported-ios", "input-push-channel needs iOS 18; the phone runs \(self.iosVersion)")
            }
            guard channelExists(channel) else {
                return refuse(
                    "unknown-channel",
                    "no broadcast channel \(channel.prefix(80)) exists for this app: the activity is not started")
            }
        }
        guard push.alert?.isComplete == true else {
            return refuse(
                "missing-alert", "a start needs an alert with a title and a body; without one the activity is not started")
        }
        let attributes: JSONValue
        switch ActivityDecoder.decode(type.attributes, at: ["aps", "attributes"], in: push.payload) {
        case .success(let value): attributes = value
        case .failure(let error): return refuse("attributes-decode", "unable to decode attributes: \(error)")
        }
        let state: JSONValue
        switch ActivityDecoder.decode(type.contentState, at: ["aps", "content-state"], in: push.payload) {
        case .success(let value): state = value
        case .failure(let error): return refuse("content-state-decode", "unable to decode content state: \(error)")
        }
        guard self.activities.filter(\.isLive).count < limits.maximumConcurrent else {
            return refuse(
                "target-maximum-exceeded",
                "the app already runs \(limits.maximumConcurrent) Live Activities (ActivityAuthorizationError.targetMaximumExceeded)"
            )
        }
        var activity = LiveActivity(
            id: issueActivityID(), attributesType: typeName, attributes: attributes, contentState: state,
            startedBy: "push-to-start", at: now)
        activity.lastTimestamp = push.timestamp
        activity.staleDate = push.staleDate.map(Self.millis)
        activity.relevanceScore = push.relevanceScore ?? 0
        // An update token comes only when asked for, with input-push-token, which iOS 18 brought;
        // before it the key means nothing.
        let wantsToken = version >= .inputPush && push.inputPushToken
        var report = ActivityReport(event: event, outcome: .started, activityID: activity.id)
        if wantsToken {
            let token = issueToken()
            activity.updateToken = token
            report.tokens.append(ActivityTokenChange(.update, activityID: activity.id, token: token))
        }
        activity.channelID = push.inputPushChannel
        activity.alert = self.audible(push.alert)
        activity.alertedAt = now
        report.alert = activity.alert
        report.presentation = push.alert.map(self.lighting)
        self.keep(activity)
        report.changes.append(ActivityChange(activity.id, .started, .active))
        if activity.updateToken != nil { report.changes.append(ActivityChange(activity.id, .token, .active)) }
        return report
    }

    /// A push to an activity's update token: `update` or `end`.
    /// - Parameters:
    ///   - hint: where the activity probably is in `activities` (a broadcast looks them all up once).
    ///   - contentStates: content states already decoded from this push, by attributes type (a
    ///     broadcast decodes the payload once per type, not once per activity).
    mutating func applyPush(
        _ push: ActivityPush, to id: String, uniqueID: String, now: Int64, limits: ActivityLimits, hint: Int? = nil,
        contentStates: ContentStateCache? = nil
    ) -> ActivityReport {
        let event = push.event ?? ""
        let found =
            hint.flatMap { $0 < self.activities.count && self.activities[$0].id == id ? $0 : nil }
            ?? self.activities.firstIndex(where: { $0.id == id })
        func ignore(_ code: String, _ reason: String) -> ActivityReport {
            var report = ActivityReport(event: event, outcome: .ignored(code), reason: reason, activityID: id)
            if let found { report.changes.append(ActivityChange(id, .ignored, self.activities[found].activityState)) }
            return report
        }
        guard let index = found else { return ignore("unknown-activity", "the activity for this token is gone") }
        guard self.activities[index].isLive else {
            return ignore(
                "activity-ended",
                "the activity already \(self.activities[index].activityState.rawValue); pushes to it are ignored")
        }
        guard event == ActivityPush.update || event == ActivityPush.end else {
            return ignore(
                "wrong-event",
                "an update token takes event \"update\" or \"end\"; this push's event is \(push.event.map { "\"\($0)\"" } ?? "missing")"
            )
        }
        if push.priority == 10 {
            let budget = limits.budget(for: self)
            guard self.activityBudget.spend(\.updates, limit: budget, at: now) else {
                return ignore(
                    "budget-exceeded",
                    "budget exceeded: \(budget) priority 10 updates an hour\(self.frequentUpdates.declared && self.frequentUpdates.enabled ? " with frequent updates" : ""); send priority 5 for updates that can wait"
                )
            }
        }
        guard let timestamp = push.timestamp else {
            return ignore("missing-timestamp", "an \(event) needs a timestamp (UNIX seconds)")
        }
        if let last = self.activities[index].lastTimestamp, timestamp < last {
            return ignore(
                "stale-timestamp", "its timestamp \(Self.text(timestamp)) is older than the last applied \(Self.text(last))")
        }
        if Self.millis(timestamp) > now + limits.futureTimestampLimit {
            return ignore(
                "future-timestamp",
                "its timestamp \(Self.text(timestamp)) is more than \(limits.futureTimestampLimit / 3_600_000) hours ahead of the phone's clock"
            )
        }
        var state: JSONValue?
        if push.hasContentState {
            let typeName = self.activities[index].attributesType
            guard let type = self.activityTypes[typeName] else {
                return ignore(
                    "unknown-attributes-type",
                    "the app no longer declares the activity type \(typeName), so its content state cannot be decoded")
            }
            let decoded =
                contentStates?.decode(typeName, type.contentState, push.payload)
                ?? ActivityDecoder.decode(type.contentState, at: ["aps", "content-state"], in: push.payload)
            switch decoded {
            case .success(let value): state = value
            case .failure(let error): return ignore("content-state-decode", "unable to decode content state: \(error)")
            }
        } else if event == ActivityPush.update {
            return ignore("missing-content-state", "an update needs a content-state")
        }
        return self.change(index, by: push, state: state, now: now, limits: limits)
    }

    /// Applies an update or an end that passed every check.
    private mutating func change(
        _ index: Int, by push: ActivityPush, state: JSONValue?, now: Int64, limits: ActivityLimits
    ) -> ActivityReport {
        let id = self.activities[index].id
        var report = ActivityReport(event: push.event ?? "", outcome: .applied, activityID: id)
        self.activities[index].lastTimestamp = push.timestamp
        if let state {
            // New content replaces the activity's ActivityContent whole, as `Activity.update(_:)`
            // does: a relevance score it does not carry is ActivityContent's default, 0 (Apple,
            // `ActivityContent.init(state:staleDate:relevanceScore:)`), as a stale date it does
            // not carry is none. An end without content keeps the last content, score and all.
            self.activities[index].contentState = state
            self.activities[index].relevanceScore = push.relevanceScore ?? 0
        } else if let score = push.relevanceScore {
            self.activities[index].relevanceScore = score
        }
        // A pending activity is on no screen yet: its content changes, nothing lights up.
        if let alert = push.alert, self.activities[index].activityState != .pending {
            self.activities[index].alert = self.audible(alert)
            self.activities[index].alertedAt = now
            report.alert = self.activities[index].alert
            report.presentation = self.lighting(alert)
        }
        if push.event == ActivityPush.end {
            let dismissal = push.dismissalDate.map(Self.millis)
            report.changes += self.end(index, at: now, dismissal: dismissal, limits: limits)
            return report
        }
        self.activities[index].staleDate = push.staleDate.map(Self.millis)
        let stale = self.activities[index].staleDate.map { $0 <= now } ?? false
        // A scheduled activity takes the new content and stays pending until its start.
        if self.activities[index].activityState != .pending { self.activities[index].activityState = stale ? .stale : .active }
        report.changes.append(ActivityChange(id, .updated, self.activities[index].activityState))
        return report
    }

    /// The alert as it plays: its sound only when the user lets the app play sounds.
    func audible(_ alert: ActivityAlert?) -> ActivityAlert? {
        guard var alert else { return nil }
        if !self.authorization.allowsSound { alert.sound = nil }
        return alert
    }

    /// How an alert on a Live Activity push shows: the screen lights with the activity's
    /// expanded view, the alert's text and, if the user allows the app's sounds, its sound.
    func lighting(_ alert: ActivityAlert) -> Presentation {
        var presentation = Presentation()
        presentation.shown = true
        presentation.style = .banner
        presentation.title = alert.title
        presentation.body = alert.body
        presentation.sound = self.audible(alert)?.sound
        if let sound = alert.sound, presentation.sound == nil {
            presentation.suppressed.append(
                Suppression(what: "sound", reason: "the user does not allow this app's sounds (\(sound) not played)"))
        }
        presentation.notes = [
            "a Live Activity alert: the screen lights and shows the activity (expanded in the Dynamic Island, or on the Lock Screen)"
        ]
        return presentation
    }

    static func millis(_ seconds: Double) -> Int64 { Int64((seconds * 1000).rounded()) }

    static func text(_ seconds: Double) -> String { seconds == seconds.rounded() ? String(Int64(seconds)) : String(seconds) }
}

/// A new activity identifier, as ActivityKit's are: a UUID.
func issueActivityID() -> String { UUID().uuidString }

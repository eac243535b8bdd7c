import APNsCore
import APNsDevice
import APNsInspection
import APNsWire

/// What a change to Live Activities is told as: the journal's entry and event stream, the
/// metrics, and the connected device, each activity as its app has it.
extension LiveActivities {
    /// Tells the journal, the metrics and the device (``record(_:install:uniqueID:broadcastID:)``,
    /// then ``inform(_:app:install:)``).
    func announce(_ report: ActivityReport, app: AppModel, install: AppInstall, uniqueID: String?, broadcastID: String? = nil) {
        self.record(report, install: install, uniqueID: uniqueID, broadcastID: broadcastID)
        self.inform(report, app: app, install: install)
    }

    /// Tells the journal (the push's entry and the event stream) and the metrics. A broadcast's
    /// changes (`broadcastID`) go to the event stream, while its journal entry tells the fan-out
    /// as a whole.
    func record(_ report: ActivityReport, install: AppInstall, uniqueID: String?, broadcastID: String?) {
        if let uniqueID {
            let record = ActivityRecord(
                id: report.activityID, event: report.event, outcome: report.outcome.outcome.rawValue, code: report.outcome.code,
                reason: report.reason)
            self.journal.activity(uniqueID: uniqueID, record)
            if let presentation = report.presentation { self.journal.presented(uniqueID: uniqueID, presentation) }
            self.metrics?.liveActivityPush(outcome: report.outcome.outcome.rawValue, reason: report.outcome.code ?? "none")
        }
        var events: [ActivityEvent] = []
        for change in report.changes {
            var event = ActivityEvent(
                change: change.change, activityID: change.activityID, activityState: change.state.rawValue, topic: install.topic,
                deviceID: install.deviceID)
            event.uniqueID = uniqueID ?? broadcastID
            if change.change == .ignored { event.reason = report.reason }
            if change.change == .token { event.token = report.tokens.first { $0.activityID == change.activityID }?.token }
            events.append(event)
        }
        if report.outcome.outcome == .notStarted {
            // A push-to-start that started nothing has no activity to tell of, only its reason.
            var event = ActivityEvent(
                change: .ignored, activityID: nil, activityState: nil, topic: install.topic, deviceID: install.deviceID)
            event.uniqueID = uniqueID
            event.reason = report.reason
            events.append(event)
        }
        for token in report.tokens where token.kind == .pushToStart {
            var event = ActivityEvent(
                change: .token, activityID: nil, activityState: nil, topic: install.topic, deviceID: install.deviceID)
            event.token = token.token
            events.append(event)
        }
        if !events.isEmpty { self.journal.activityEvents(events) }
    }

    /// Tells the app's device, if connected, what the report changed: each activity as `app` has it.
    func inform(_ report: ActivityReport, app: AppModel, install: AppInstall) {
        guard !PhoneApps.isDeviceless(install) else { return }
        self.hub.inform(device: install.deviceID, Self.deviceMessages(report, app: app, topic: install.topic))
    }

    /// What a version-3 device hears of a report: each token issued, then each change with the
    /// activity as it is now.
    static func deviceMessages(_ report: ActivityReport, app: AppModel, topic: String) -> [DeviceServerMessage] {
        var messages: [DeviceServerMessage] = report.tokens.compactMap { change in
            DeviceToken(hex: change.token).map { .activityToken(topic: topic, activityID: change.activityID, token: $0) }
        }
        // A broadcast's report holds a change for each of the app's subscribed activities: they
        // are found by id through an index, not a scan of the list each.
        var positions: [String: Int] = [:]
        if report.changes.count > 4 {
            positions.reserveCapacity(app.activities.count)
            for (index, activity) in app.activities.enumerated() where positions[activity.id] == nil {
                positions[activity.id] = index
            }
        }
        for change in report.changes where change.change != .token {
            let index =
                report.changes.count > 4
                ? positions[change.activityID] : app.activities.firstIndex(where: { $0.id == change.activityID })
            guard let index else { continue }
            let activity = app.activities[index]
            messages.append(
                .activity(
                    topic: topic,
                    document: Self.activityDocument(
                        change.change, reason: change.change == .ignored ? report.reason : nil, activity, topic: topic)))
        }
        return messages
    }

    /// `{"change", "reason", "activity"}`: one change as the device protocol carries it. The
    /// activity goes without its history (up to 100 items, which the change itself extends): a
    /// broadcast changes every subscribed activity at once, and the device lists the history
    /// when it wants it.
    static func activityDocument(
        _ change: ActivityChange.Kind, reason: String?, _ activity: LiveActivity, topic: String
    ) -> [UInt8] {
        var writer = JSONWriter()
        writer.object { members in
            members.member("change") { $0.string(change.rawValue) }
            members.member("reason") { $0.optionalString(reason) }
            members.member("activity") { ActivityJSON.write(activity, topic: topic, deviceID: "", history: false, into: &$0) }
        }
        return writer.bytes
    }
}

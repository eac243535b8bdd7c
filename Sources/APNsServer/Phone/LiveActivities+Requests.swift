import APNsCore
import APNsDevice
import NIOCore

/// What an app does with its own Live Activities, whichever front door carries it (the admin
/// API or a version-3 device): `Activity.request`, `activity.end`, and a token rotation. Each door
/// reads its own document (``ActivityOperations/readStart(_:)``, ``ActivityOperations/readEnd(_:_:)``).
extension LiveActivities {
    /// What the app asks, as each door read it. The activity's `attributes` and `content-state`
    /// stay in the document they came in: what they decode to is the type the app declares
    /// (``ActivityDecoder``), read under the apps' lock with the app.
    enum ActivityAppRequest: Sendable {
        /// `Activity.request`, from `{"attributes-type", "attributes", "content-state", "pushType"}`.
        case start(ActivityRequest, document: [UInt8])
        /// `activity.end` of activity `id`, from `{"content-state", "dismissalPolicy", "dismissal-date"}` (or nothing).
        case end(String, ActivityEndRequest, document: [UInt8])
    }

    /// Carries out the app's request. Fails with a ``DeviceModelError``: `.invalid` for a state
    /// that does not decode as the app's type, `.refused` for what ActivityKit refuses.
    func activityRequest(
        _ request: ActivityAppRequest, in install: AppInstall, on eventLoop: any EventLoop
    ) -> EventLoopFuture<(ActivityReport, AppModel)> {
        let (now, limits) = (self.clock(), self.limits)
        switch request {
        case .start(let request, let document):
            let channelKnown = request.channelID.map { self.channels.isSubscribable($0, of: install.topic, now: now) } ?? true
            let started = self.changeActivities(install, on: eventLoop) { app throws(DeviceModelError) in
                try app.startActivity(
                    request, json: document, now: now, limits: limits, issueToken: self.issueToken,
                    channelExists: { _ in channelKnown })
            }
            started.whenSuccess { report, app in
                self.handOverStoredBroadcast(after: report, app: app, install: install, on: eventLoop)
            }
            return started
        case .end(let id, let request, let document):
            return self.changeActivities(install, on: eventLoop) { app throws(DeviceModelError) in
                try app.endActivity(id, request, json: document, now: now, limits: limits)
            }
        }
    }

    /// Gives activity `id` a new update token, or (nil) the app a new push-to-start token; the
    /// old one stops being valid (410 Unregistered).
    func rotateToken(
        in install: AppInstall, activity id: String?, on eventLoop: any EventLoop
    ) -> EventLoopFuture<ActivityTokenChange?> {
        let now = self.clock()
        return self.changeActivities(install, on: eventLoop) { app throws(DeviceModelError) in
            var report = ActivityReport(event: "token", outcome: ActivityOutcome(.token), activityID: id)
            if let id {
                report.tokens = [try app.rotateActivityToken(id, now: now, issueToken: self.issueToken)]
                report.changes = [ActivityChange(id, .token, app.activities.first { $0.id == id }?.activityState ?? .active)]
            } else {
                report.tokens = [try app.rotatePushToStartToken(issueToken: self.issueToken)]
            }
            return report
        }.map { report, _ in report.tokens.first }
    }
}

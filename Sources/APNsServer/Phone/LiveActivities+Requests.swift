import APNsCore
import APNsDevice
import APNsInspection
import NIOCore

/// What an app does with its own Live Activities, whichever front door carries it (the admin
/// API or a version-3 device): `Activity.request`, `activity.end`, and a token rotation.
extension LiveActivities {
    /// What the app asks.
    enum ActivityAppRequest {
        /// `Activity.request`, from `{"attributes-type", "attributes", "content-state", "pushType"}`.
        case start
        /// `activity.end` of activity `id`, from `{"content-state", "dismissalPolicy", "dismissal-date"}` (or nothing).
        case end(String)
    }

    static let activityExample =
        #"{"attributes-type": "Delivery", "attributes": {"orderNumber": 7}, "content-state": {"status": "packing"}, "pushType": "token"}"#
    static let endExample = #"{"content-state": {"status": "delivered"}, "dismissalPolicy": "immediate"}"#

    /// Carries out the app's request given as a JSON `document`. Fails with a
    /// ``DeviceModelError``: `.invalid` for a document or state that does not decode, `.refused`
    /// for what ActivityKit refuses.
    func activityRequest(
        _ kind: ActivityAppRequest, document: [UInt8], in install: AppInstall, on eventLoop: any EventLoop
    ) -> EventLoopFuture<(ActivityReport, AppModel)> {
        let (now, limits) = (self.clock(), self.limits)
        do {
            switch kind {
            case .start:
                let request = try Self.decode(ActivityRequest.self, document, example: Self.activityExample)
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
            case .end(let id):
                let request =
                    document.isEmpty
                    ? ActivityEndRequest() : try Self.decode(ActivityEndRequest.self, document, example: Self.endExample)
                return self.changeActivities(install, on: eventLoop) { app throws(DeviceModelError) in
                    try app.endActivity(id, request, json: document, now: now, limits: limits)
                }
            }
        } catch {
            return eventLoop.makeFailedFuture(error)
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

    /// A request document decoded as the admin API decodes its bodies, its refusal as the
    /// phone's own (`.invalid`, naming the field).
    private static func decode<T: Decodable>(_ type: T.Type, _ document: [UInt8], example: String) throws(DeviceModelError) -> T {
        do {
            return try RequestDocument.decode(T.self, from: document, example: example)
        } catch {
            throw DeviceModelError(.invalid, field: error.field, error.message)
        }
    }
}

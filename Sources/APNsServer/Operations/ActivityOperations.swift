import APNsCore
import APNsDevice
import APNsInspection
import NIOCore

/// What the admin API and the device protocol do to an app's Live Activities, one operation per
/// ActivityKit call: the same documents, the same refusals (``PhoneRefusal``: 400 a state that
/// does not decode, 404 no such activity, 409 what ActivityKit refuses) and the same JSON.
struct ActivityOperations {
    let phone: Phone

    /// An activity an app's request concerned, with the app holding it.
    struct Concerned {
        let activity: LiveActivity
        let app: AppModel
        let install: AppInstall

        /// As the admin API answers one activity.
        var one: [UInt8] {
            ActivityJSON.one(self.activity, topic: self.install.topic, deviceID: self.install.deviceID, app: self.app)
        }

        /// As the device protocol answers: `activities` with one item.
        var list: [UInt8] {
            ActivityJSON.list(
                [self.activity], topic: self.install.topic, deviceID: self.install.deviceID,
                pushToStartToken: self.app.pushToStartToken, app: self.app)
        }
    }

    /// The app's activities, oldest first, with its push-to-start token.
    func list(_ install: AppInstall) -> Result<[UInt8], PhoneRefusal> {
        self.withApp(install) { app in
            .success(
                ActivityJSON.list(
                    app.orderedActivities, topic: install.topic, deviceID: install.deviceID,
                    pushToStartToken: app.pushToStartToken, app: app))
        }
    }

    /// One of the app's activities.
    func read(_ id: String, of install: AppInstall) -> Result<[UInt8], PhoneRefusal> {
        self.withApp(install) { app in
            guard let activity = app.activities.first(where: { $0.id == id }) else {
                return .failure(.notFound("no Live Activity \(id)"))
            }
            return .success(ActivityJSON.one(activity, topic: install.topic, deviceID: install.deviceID, app: app))
        }
    }

    /// `Activity.request` (`.start`) or `activity.end(_:dismissalPolicy:)` (`.end`), as the door
    /// read it (``readStart(_:)``, ``readEnd(_:_:)``).
    func request(
        _ request: LiveActivities.ActivityAppRequest, in install: AppInstall, on eventLoop: any EventLoop
    ) -> EventLoopFuture<Concerned> {
        self.phone.activities.activityRequest(request, in: install, on: eventLoop).flatMapThrowing {
            report, app in
            guard let activity = app.activities.first(where: { $0.id == report.activityID }) else {
                throw PhoneRefusal(.failedReading, "the activity went missing")
            }
            return Concerned(activity: activity, app: app, install: install)
        }.flatMapErrorThrowing { throw PhoneRefusal($0, saving: "the activity") }
    }

    /// The app declares the Live Activity types it has, by name.
    func declare(
        _ types: [String: ActivityType], in install: AppInstall, on eventLoop: any EventLoop
    ) -> EventLoopFuture<AppModel> {
        var update = AppUpdate()
        update.activityTypes = types
        do {
            try update.validate()
        } catch {
            return eventLoop.makeFailedFuture(PhoneRefusal(.invalid, "\(error)"))
        }
        return self.phone.update(install, with: update, on: eventLoop).flatMapErrorThrowing { throw PhoneRefusal($0) }
    }

    /// The Live Activity types an app declares (`{"<type>": {"attributes", "contentState"}}`),
    /// read by each door from its bytes.
    static func readTypes(_ document: [UInt8]) throws(PhoneRefusal) -> [String: ActivityType] {
        try PhoneRefusal.reading(
            [String: ActivityType].self, from: document,
            example: #"{"Delivery": {"attributes": {"order": "int"}, "contentState": {"eta": "date"}}}"#)
    }

    static let startExample =
        #"{"attributes-type": "Delivery", "attributes": {"orderNumber": 7}, "content-state": {"status": "packing"}, "pushType": "token"}"#
    static let endExample = #"{"content-state": {"status": "delivered"}, "dismissalPolicy": "immediate"}"#

    /// `Activity.request`'s document, read by each door from its bytes.
    static func readStart(_ document: [UInt8]) throws(PhoneRefusal) -> LiveActivities.ActivityAppRequest {
        .start(try PhoneRefusal.reading(ActivityRequest.self, from: document, example: Self.startExample), document: document)
    }

    /// `activity.end`'s document for activity `id` (empty: the activity ends as it is, at once
    /// by the default policy), read by each door from its bytes.
    static func readEnd(_ id: String, _ document: [UInt8]) throws(PhoneRefusal) -> LiveActivities.ActivityAppRequest {
        let request =
            document.isEmpty
            ? ActivityEndRequest() : try PhoneRefusal.reading(ActivityEndRequest.self, from: document, example: Self.endExample)
        return .end(id, request, document: document)
    }

    private func withApp(
        _ install: AppInstall, _ body: (AppModel) -> Result<[UInt8], PhoneRefusal>
    ) -> Result<[UInt8], PhoneRefusal> {
        do {
            return body(try self.phone.apps.app(install))
        } catch {
            return .failure(PhoneRefusal(.failedReading, "could not read the app: \(error)"))
        }
    }
}

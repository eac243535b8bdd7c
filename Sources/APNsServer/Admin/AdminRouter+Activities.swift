import APNsCore
import APNsDevice
import APNsInspection
import APNsStore
import NIOCore

extension AdminRouter {
    /// The answer for the Live Activity the path's `{id}` names, with the app holding it; 404
    /// when no emulated phone has it.
    func withActivity(_ request: Request, _ answer: (String, AppInstall) -> EventLoopFuture<Reply>) -> EventLoopFuture<Reply> {
        let id = request[path: "id"]
        guard let install = self.phone.owner(ofActivity: id) else {
            return request.now(Self.error(.notFound, "no Live Activity \(id) on any emulated phone"))
        }
        return answer(id, install)
    }

    func activities(of install: AppInstall) -> Response {
        do {
            let app = try self.phone.app(install)
            return Response(
                status: 200,
                body: ActivityJSON.list(
                    app.orderedActivities, topic: install.topic, deviceID: install.deviceID,
                    pushToStartToken: app.pushToStartToken, app: app))
        } catch {
            return Self.error(.internalError, "could not read the app: \(error)")
        }
    }

    func activity(_ id: String, of install: AppInstall) -> Response {
        do {
            let app = try self.phone.app(install)
            guard let activity = app.activities.first(where: { $0.id == id }) else {
                return Self.error(.notFound, "no Live Activity \(id)")
            }
            return Response(
                status: 200, body: ActivityJSON.one(activity, topic: install.topic, deviceID: install.deviceID, app: app))
        } catch {
            return Self.error(.internalError, "could not read the app: \(error)")
        }
    }

    /// `POST .../activities`: the app calls `Activity.request`. 201 with the activity; 400 for a
    /// state that does not decode; 409 as ActivityKit refuses (a type not declared among them).
    func startActivity(in install: AppInstall, body: [UInt8], on eventLoop: any EventLoop) -> EventLoopFuture<Response> {
        self.answer(install, self.phone.activityRequest(.start, document: body, in: install, on: eventLoop), created: true)
    }

    /// `POST /api/v1/activities/<id>/end`: the app calls `activity.end(_:dismissalPolicy:)`.
    func endActivity(
        _ id: String, of install: AppInstall, body: [UInt8], on eventLoop: any EventLoop
    ) -> EventLoopFuture<Response> {
        self.answer(install, self.phone.activityRequest(.end(id), document: body, in: install, on: eventLoop))
    }

    /// `POST .../rotate-token`: a new update token (or push-to-start token, `activity` nil);
    /// the old one answers 410 Unregistered from now on.
    func rotateToken(of install: AppInstall, activity id: String?, on eventLoop: any EventLoop) -> EventLoopFuture<Response> {
        self.phone.rotateToken(in: install, activity: id, on: eventLoop).map { change in
            var writer = JSONWriter()
            writer.object { members in
                members.member("token") { $0.optionalString(change?.token) }
                members.member("replaced") { $0.optionalString(change?.replaced) }
            }
            return Response(status: 200, body: writer.bytes)
        }.recover(Self.refusal)
    }

    /// Answers with the activity an app's request concerned.
    private func answer(
        _ install: AppInstall, _ done: EventLoopFuture<(ActivityReport, AppModel)>, created: Bool = false
    ) -> EventLoopFuture<Response> {
        done.map { report, app in
            guard let activity = app.activities.first(where: { $0.id == report.activityID }) else {
                return Self.error(.internalError, "the activity went missing")
            }
            return Response(
                status: created ? 201 : 200,
                body: ActivityJSON.one(activity, topic: install.topic, deviceID: install.deviceID, app: app))
        }.recover(Self.refusal)
    }

    static func refusal(_ error: any Error) -> Response {
        guard let refusal = error as? DeviceModelError else {
            return Self.error(.unavailable, "could not save the activity: \(error)")
        }
        return Self.error(
            refusal.code == .refused ? .conflict : .badRequest,
            refusal.field.isEmpty || refusal.message.hasPrefix(refusal.field)
                ? refusal.message : "\(refusal.field): \(refusal.message)")
    }
}

import APNsCore
import APNsDevice
import APNsInspection
import APNsStore
import NIOCore

extension AdminRouter {
    /// `/api/v1/devices/<token>/activities`, `/api/v1/devices/<token>/rotate-push-to-start-token`,
    /// `/api/v1/activities/<id>[/end|/rotate-token]`: Live Activities on the emulated phone.
    func routeActivities(_ request: Request) throws(InspectionError) -> EventLoopFuture<Reply> {
        let segments = request.segments
        if segments[2] == "activities" {
            let id = segments[3]
            let action = segments.count == 5 ? segments[4] : ""
            guard ["", "end", "rotate-token"].contains(action) else { return request.now(Self.error(404, "no such endpoint: \(request.path)")) }
            return try request.only(action.isEmpty ? "GET" : "POST") {
                guard let install = self.relay.phone.owner(ofActivity: id) else { return request.now(Self.error(404, "no Live Activity \(id) on any emulated phone")) }
                switch action {
                case "end": return request.later(self.endActivity(id, of: install, body: request.body, on: request.eventLoop))
                case "rotate-token": return request.later(self.rotateToken(of: install, activity: id, on: request.eventLoop))
                default: return request.now(self.activity(id, of: install))
                }
            }
        }
        guard let token = DeviceToken(hex: segments[3]) else { return request.now(Self.badToken) }
        if segments[4] == "rotate-push-to-start-token" {
            return try request.only("POST") {
                let found = self.phoneInstall(of: token)
                guard let install = found.install else { return request.now(found.refusal) }
                return request.later(self.rotateToken(of: install, activity: nil, on: request.eventLoop))
            }
        }
        guard request.method == "GET" || request.method == "POST" else { return request.now(Self.notAllowed("GET", "POST")) }
        let found = self.phoneInstall(of: token)
        guard let install = found.install else { return request.now(found.refusal) }
        return request.method == "GET" ? request.now(self.activities(of: install)) : request.later(self.startActivity(in: install, body: request.body, on: request.eventLoop))
    }

    func activities(of install: AppInstall) -> Response {
        do {
            let app = try self.relay.phone.app(install)
            return Response(status: 200, body: ActivityJSON.list(app.orderedActivities, topic: install.topic, deviceID: install.deviceID, pushToStartToken: app.pushToStartToken))
        } catch {
            return Self.error(500, "could not read the app: \(error)")
        }
    }

    func activity(_ id: String, of install: AppInstall) -> Response {
        do {
            guard let activity = try self.relay.phone.app(install).activities.first(where: { $0.id == id }) else {
                return Self.error(404, "no Live Activity \(id)")
            }
            return Response(status: 200, body: ActivityJSON.one(activity, topic: install.topic, deviceID: install.deviceID))
        } catch {
            return Self.error(500, "could not read the app: \(error)")
        }
    }

    /// `POST .../activities`: the app calls `Activity.request`. 201 with the activity; 400 for a
    /// state that does not decode; 409 as ActivityKit refuses (a type not declared among them).
    func startActivity(in install: AppInstall, body: [UInt8], on eventLoop: any EventLoop) -> EventLoopFuture<Response> {
        self.answer(install, self.relay.phone.activityRequest(.start, document: body, in: install, on: eventLoop), created: true)
    }

    /// `POST /api/v1/activities/<id>/end`: the app calls `activity.end(_:dismissalPolicy:)`.
    func endActivity(_ id: String, of install: AppInstall, body: [UInt8], on eventLoop: any EventLoop) -> EventLoopFuture<Response> {
        self.answer(install, self.relay.phone.activityRequest(.end(id), document: body, in: install, on: eventLoop))
    }

    /// `POST .../rotate-token`: a new update token (or push-to-start token, `activity` nil);
    /// the old one answers 410 Unregistered from now on.
    func rotateToken(of install: AppInstall, activity id: String?, on eventLoop: any EventLoop) -> EventLoopFuture<Response> {
        self.relay.phone.rotateToken(in: install, activity: id, on: eventLoop).map { change in
            var writer = JSONWriter()
            writer.object { members in
                members.member("token") { $0.optionalString(change?.token) }
                members.member("replaced") { $0.optionalString(change?.replaced) }
            }
            return Response(status: 200, body: writer.bytes)
        }.recover(Self.refusal)
    }

    /// Answers with the activity an app's request concerned.
    private func answer(_ install: AppInstall, _ done: EventLoopFuture<(ActivityReport, AppModel)>, created: Bool = false) -> EventLoopFuture<Response> {
        done.map { report, app in
            guard let activity = app.activities.first(where: { $0.id == report.activityID }) else { return Self.error(500, "the activity went missing") }
            return Response(status: created ? 201 : 200, body: ActivityJSON.one(activity, topic: install.topic, deviceID: install.deviceID))
        }.recover(Self.refusal)
    }

    static func refusal(_ error: any Error) -> Response {
        guard let refusal = error as? DeviceModelError else { return Self.error(503, "could not save the activity: \(error)") }
        return Self.error(refusal.code == .refused ? 409 : 400, refusal.field.isEmpty || refusal.message.hasPrefix(refusal.field) ? refusal.message : "\(refusal.field): \(refusal.message)")
    }
}

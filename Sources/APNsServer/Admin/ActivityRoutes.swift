import APNsCore
import APNsDevice
import APNsInspection
import APNsStore
import NIOCore

/// The admin API's door to ``ActivityOperations``: an app's Live Activities, by its token or by
/// the activity's id. They hold the phone and nothing else.
struct ActivityRoutes: Sendable {
    typealias Response = AdminRouter.Response
    let phone: Phone

    /// The Live Activity the path's `{id}` names, with the app holding it; 404 when no emulated
    /// phone has it.
    func activityHolder(_ request: AdminRouter.Request) throws(AdminError) -> (id: String, install: AppInstall) {
        let id = request[path: "id"]
        guard let install = self.phone.activities.owner(ofActivity: id) else {
            throw AdminError(.notFound, "no Live Activity \(id) on any emulated phone")
        }
        return (id, install)
    }

    var activityOperations: ActivityOperations { ActivityOperations(phone: self.phone) }

    func activities(of install: AppInstall) throws(AdminError) -> Response {
        try AdminRouter.answer(self.activityOperations.list(install))
    }

    func activity(_ id: String, of install: AppInstall) throws(AdminError) -> Response {
        try AdminRouter.answer(self.activityOperations.read(id, of: install))
    }

    /// `POST .../activities`: the app calls `Activity.request`. 201 with the activity; 400 for a
    /// state that does not decode; 409 as ActivityKit refuses (a type not declared among them).
    func startActivity(in install: AppInstall, body: [UInt8], on eventLoop: any EventLoop) -> EventLoopFuture<Response> {
        let request: LiveActivities.ActivityAppRequest
        do {
            request = try ActivityOperations.readStart(body)
        } catch {
            return eventLoop.makeFailedFuture(AdminError(error))
        }
        return self.activityOperations.request(request, in: install, on: eventLoop).map { Response(status: 201, body: $0.one) }
            .failingAsRefusal()
    }

    /// `POST /api/v1/activities/<id>/end`: the app calls `activity.end(_:dismissalPolicy:)`.
    func endActivity(
        _ id: String, of install: AppInstall, body: [UInt8], on eventLoop: any EventLoop
    ) -> EventLoopFuture<Response> {
        let request: LiveActivities.ActivityAppRequest
        do {
            request = try ActivityOperations.readEnd(id, body)
        } catch {
            return eventLoop.makeFailedFuture(AdminError(error))
        }
        return self.activityOperations.request(request, in: install, on: eventLoop).map { Response(status: 200, body: $0.one) }
            .failingAsRefusal()
    }

    /// `POST .../rotate-token`: a new update token (or push-to-start token, `activity` nil);
    /// the old one answers 410 Unregistered from now on.
    func rotateToken(of install: AppInstall, activity id: String?, on eventLoop: any EventLoop) -> EventLoopFuture<Response> {
        self.phone.activities.rotateToken(in: install, activity: id, on: eventLoop).map { change in
            var writer = JSONWriter()
            writer.object { members in
                members.member("token") { $0.optionalString(change?.token) }
                members.member("replaced") { $0.optionalString(change?.replaced) }
            }
            return Response(status: 200, body: writer.bytes)
        }.failingAsRefusal()
    }

    /// Their entries in ``AdminRoute/table``.
    static let routes: [AdminRoute] = [
        AdminRoute("GET", "/api/v1/devices/{token}/activities", cluster: .tokenOwner, on: \.activityRoutes) {
            routes, request throws(AdminError) in
            try request.now(routes.activities(of: request.install(on: routes.phone.apps)))
        },
        AdminRoute("POST", "/api/v1/devices/{token}/activities", cluster: .tokenOwner, on: \.activityRoutes) {
            routes, request throws(AdminError) in
            try request.later(
                routes.startActivity(in: request.install(on: routes.phone.apps), body: request.body, on: request.eventLoop))
        },
        AdminRoute("POST", "/api/v1/devices/{token}/rotate-push-to-start-token", cluster: .tokenOwner, on: \.activityRoutes) {
            routes, request throws(AdminError) in
            try request.later(
                routes.rotateToken(of: request.install(on: routes.phone.apps), activity: nil, on: request.eventLoop))
        },
        AdminRoute("GET", "/api/v1/activities/{id}", cluster: .activityHolder, on: \.activityRoutes) {
            routes, request throws(AdminError) in
            let (id, install) = try routes.activityHolder(request)
            return try request.now(routes.activity(id, of: install))
        },
        AdminRoute("POST", "/api/v1/activities/{id}/end", cluster: .activityHolder, on: \.activityRoutes) {
            routes, request throws(AdminError) in
            let (id, install) = try routes.activityHolder(request)
            return request.later(routes.endActivity(id, of: install, body: request.body, on: request.eventLoop))
        },
        AdminRoute("POST", "/api/v1/activities/{id}/rotate-token", cluster: .activityHolder, on: \.activityRoutes) {
            routes, request throws(AdminError) in
            let (id, install) = try routes.activityHolder(request)
            return request.later(routes.rotateToken(of: install, activity: id, on: request.eventLoop))
        },
    ]
}

extension AdminRouter {
    var activityRoutes: ActivityRoutes { ActivityRoutes(phone: self.phone) }
}

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

    var activityOperations: ActivityOperations { ActivityOperations(phone: self.phone) }

    func activities(of install: AppInstall) -> Response {
        Self.answer(self.activityOperations.list(install))
    }

    func activity(_ id: String, of install: AppInstall) -> Response {
        Self.answer(self.activityOperations.read(id, of: install))
    }

    /// `POST .../activities`: the app calls `Activity.request`. 201 with the activity; 400 for a
    /// state that does not decode; 409 as ActivityKit refuses (a type not declared among them).
    func startActivity(in install: AppInstall, body: [UInt8], on eventLoop: any EventLoop) -> EventLoopFuture<Response> {
        self.activityOperations.request(.start, body, in: install, on: eventLoop).map { Response(status: 201, body: $0.one) }
            .recover(Self.refusal)
    }

    /// `POST /api/v1/activities/<id>/end`: the app calls `activity.end(_:dismissalPolicy:)`.
    func endActivity(
        _ id: String, of install: AppInstall, body: [UInt8], on eventLoop: any EventLoop
    ) -> EventLoopFuture<Response> {
        self.activityOperations.request(.end(id), body, in: install, on: eventLoop).map { Response(status: 200, body: $0.one) }
            .recover(Self.refusal)
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

    /// A phone operation's JSON, 200, or its refusal.
    static func answer(_ result: Result<[UInt8], PhoneRefusal>) -> Response {
        switch result {
        case .success(let body): Response(status: 200, body: body)
        case .failure(let refusal): Self.refusal(refusal)
        }
    }

    /// A phone operation's refusal as the admin API answers it: ``PhoneRefusal``'s status and words.
    static func refusal(_ error: any Error) -> Response {
        let refusal = PhoneRefusal(error, saving: "the change")
        return Response(status: refusal.status, body: JSONWriter.error(refusal.message))
    }
}

/// The routes of this concern: their entries in ``AdminRoute/table``.
extension AdminRoute {
    static let activities: [AdminRoute] = [
        AdminRoute("GET", "/api/v1/devices/{token}/activities", cluster: .tokenOwner) { router, request in
            request.token { router.withInstall(of: $0, request) { request.now(router.activities(of: $0)) } }
        },
        AdminRoute("POST", "/api/v1/devices/{token}/activities", cluster: .tokenOwner) { router, request in
            request.token {
                router.withInstall(of: $0, request) {
                    request.later(router.startActivity(in: $0, body: request.body, on: request.eventLoop))
                }
            }
        },
        AdminRoute("POST", "/api/v1/devices/{token}/rotate-push-to-start-token", cluster: .tokenOwner) { router, request in
            request.token {
                router.withInstall(of: $0, request) {
                    request.later(router.rotateToken(of: $0, activity: nil, on: request.eventLoop))
                }
            }
        },
        AdminRoute("GET", "/api/v1/activities/{id}", cluster: .activityHolder) { router, request in
            router.withActivity(request) { id, install in request.now(router.activity(id, of: install)) }
        },
        AdminRoute("POST", "/api/v1/activities/{id}/end", cluster: .activityHolder) { router, request in
            router.withActivity(request) { id, install in
                request.later(router.endActivity(id, of: install, body: request.body, on: request.eventLoop))
            }
        },
        AdminRoute("POST", "/api/v1/activities/{id}/rotate-token", cluster: .activityHolder) { router, request in
            router.withActivity(request) { id, install in
                request.later(router.rotateToken(of: install, activity: id, on: request.eventLoop))
            }
        },
    ]
}

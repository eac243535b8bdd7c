import APNsCore
import APNsDevice
import APNsInspection
import NIOCore

/// `/api/v1/devices/<token>/pending[/<id>]` and `/location`: the admin API's door to
/// ``LocalOperations``. They hold the phone and the relay (a notification that fires is delivered) and nothing else.
struct LocalRoutes: Sendable {
    typealias Response = AdminRouter.Response
    let phone: Phone
    let relay: Relay
    var localOperations: LocalOperations { LocalOperations(phone: self.phone, relay: self.relay) }

    func pending(of token: DeviceToken) throws(AdminError) -> Response {
        let install = try AdminRouter.install(of: token, on: self.phone.apps)
        return try AdminRouter.answer(self.localOperations.pending(install))
    }

    /// `POST .../pending`: the app schedules a request (201, with when it fires next); one with the
    /// same identifier is replaced, and the 64-request limit may push the latest-firing out.
    func schedule(
        for token: DeviceToken, body: [UInt8], on eventLoop: any EventLoop
    ) throws(AdminError) -> EventLoopFuture<Response> {
        let install = try AdminRouter.install(of: token, on: self.phone.apps)
        let document = try AdminRouter.readPhoneDocument(LocalOperations.readSchedule(body))
        return self.localOperations.schedule(document, for: install, on: eventLoop).map { request, evicted in
            Response(status: 201, body: LocalScheduler.scheduledJSON(request, evicted: evicted))
        }.failingAsRefusal()
    }

    /// `DELETE .../pending[/<id>]`: cancels one (404 when there is none by that name) or all.
    func cancel(
        for token: DeviceToken, _ identifier: String?, on eventLoop: any EventLoop
    ) throws(AdminError) -> EventLoopFuture<Response> {
        let install = try AdminRouter.install(of: token, on: self.phone.apps)
        return self.localOperations.cancel(identifier, for: install, on: eventLoop)
            .map { Response(status: 200, body: Array(#"{"removed":\#($0)}"#.utf8)) }.failingAsRefusal()
    }

    /// `POST .../location` `{"latitude", "longitude"}`: the device is there now; region requests
    /// it entered or left fire. `{"fired": [identifiers]}`.
    func move(_ token: DeviceToken, body: [UInt8], on eventLoop: any EventLoop) throws(AdminError) -> EventLoopFuture<Response> {
        let install = try AdminRouter.install(of: token, on: self.phone.apps)
        let point = try AdminRouter.readPhoneDocument(LocalOperations.readLocation(body))
        return self.localOperations.move(install, to: point, on: eventLoop).map { fired in
            Response(status: 200, body: Array(#"{"fired":\#(PhoneJSON.encoded(fired))}"#.utf8))
        }.failingAsRefusal()
    }

    /// Their entries in ``AdminRoute/table``.
    static let routes: [AdminRoute] = [
        AdminRoute("GET", "/api/v1/devices/{token}/pending", cluster: .tokenOwner, on: \.localRoutes) {
            routes, request throws(AdminError) in
            try request.now(routes.pending(of: request.deviceToken()))
        },
        AdminRoute("POST", "/api/v1/devices/{token}/pending", cluster: .tokenOwner, on: \.localRoutes) {
            routes, request throws(AdminError) in
            try request.later(routes.schedule(for: request.deviceToken(), body: request.body, on: request.eventLoop))
        },
        AdminRoute("DELETE", "/api/v1/devices/{token}/pending", cluster: .tokenOwner, on: \.localRoutes) {
            routes, request throws(AdminError) in
            try request.later(routes.cancel(for: request.deviceToken(), nil, on: request.eventLoop))
        },
        AdminRoute("DELETE", "/api/v1/devices/{token}/pending/{id}", cluster: .tokenOwner, on: \.localRoutes) {
            routes, request throws(AdminError) in
            try request.later(routes.cancel(for: request.deviceToken(), request[path: "id"], on: request.eventLoop))
        },
        AdminRoute("POST", "/api/v1/devices/{token}/location", cluster: .tokenOwner, on: \.localRoutes) {
            routes, request throws(AdminError) in
            try request.later(routes.move(request.deviceToken(), body: request.body, on: request.eventLoop))
        },
    ]
}

extension AdminRouter {
    var localRoutes: LocalRoutes { LocalRoutes(phone: self.phone, relay: self.relay) }
}

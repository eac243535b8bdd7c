import APNsCore
import APNsDevice
import NIOCore

/// The admin API's door to ``WebAppOperations``: the device is the one the path's token's app is
/// on; the answer is the operation's JSON, or its ``PhoneRefusal``.
extension AdminRouter {
    var webAppOperations: WebAppOperations { WebAppOperations(phone: self.phone) }

    /// `POST /api/v1/devices/<token>/web-apps`: a web app on the device `install` is on
    /// subscribes; 201 with the web app and its `subscription` as `PushSubscription.toJSON()`.
    func subscribeWebApp(
        host token: DeviceToken, in install: AppInstall, body: [UInt8], on eventLoop: any EventLoop
    ) -> EventLoopFuture<Response> {
        let host = Phone.WebAppHost(hostToken: token.hex, hostInstall: install, deviceID: nil)
        return self.webAppOperations.subscribe(host, body, on: eventLoop).map { Response(status: 201, body: self.phone.json($0)) }
            .failingAsRefusal()
    }

    /// `GET /api/v1/devices/<token>/web-apps`: the web apps on the device `install` is on.
    func webApps(in install: AppInstall) -> Response {
        Response(status: 200, body: self.webAppOperations.list(device: install.deviceID))
    }

    /// `GET …/web-apps/<id>`.
    func webApp(_ id: String, in install: AppInstall) throws(AdminError) -> Response {
        switch self.webAppOperations.read(id, device: install.deviceID) {
        case .success(let body): Response(status: 200, body: body)
        case .failure(let refusal): throw AdminError(refusal)
        }
    }

    /// `POST …/web-apps/<id>/unsubscribe`: `PushSubscription.unsubscribe()`.
    func unsubscribeWebApp(_ id: String, in install: AppInstall, on eventLoop: any EventLoop) -> EventLoopFuture<Response> {
        self.webAppOperations.unsubscribe(id, device: install.deviceID, on: eventLoop).map { Response(status: 200, body: $0) }
            .failingAsRefusal()
    }

    /// `PUT …/web-apps/<id>/permission`: the user changes the origin's notification permission.
    func setWebAppPermission(
        _ id: String, in install: AppInstall, body: [UInt8], on eventLoop: any EventLoop
    ) -> EventLoopFuture<Response> {
        self.webAppOperations.setPermission(id, body, device: install.deviceID, on: eventLoop)
            .map { Response(status: 200, body: $0) }.failingAsRefusal()
    }

    /// `POST …/web-apps/<id>/show`: the service worker's `showNotification`; 201 with what
    /// Notification Center holds.
    func showWebAppNotification(
        _ id: String, in install: AppInstall, body: [UInt8], on eventLoop: any EventLoop
    ) -> EventLoopFuture<Response> {
        self.webAppOperations.show(id, body, device: install.deviceID, on: eventLoop).map { Response(status: 201, body: $0) }
            .failingAsRefusal()
    }
}

/// The routes of this concern: their entries in ``AdminRoute/table``.
extension AdminRoute {
    static let webApps: [AdminRoute] = [
        AdminRoute("GET", "/api/v1/devices/{token}/web-apps", cluster: .tokenOwner) { router, request throws(AdminError) in
            try request.now(router.webApps(in: router.install(request)))
        },
        AdminRoute("POST", "/api/v1/devices/{token}/web-apps", cluster: .tokenOwner) { router, request throws(AdminError) in
            let token = try request.deviceToken()
            let install = try router.phoneInstall(of: token)
            return request.later(router.subscribeWebApp(host: token, in: install, body: request.body, on: request.eventLoop))
        },
        AdminRoute("GET", "/api/v1/devices/{token}/web-apps/{id}", cluster: .tokenOwner) { router, request throws(AdminError) in
            try request.now(router.webApp(request[path: "id"], in: router.install(request)))
        },
        AdminRoute("POST", "/api/v1/devices/{token}/web-apps/{id}/unsubscribe", cluster: .tokenOwner) {
            router, request throws(AdminError) in
            try request.later(router.unsubscribeWebApp(request[path: "id"], in: router.install(request), on: request.eventLoop))
        },
        AdminRoute("PUT", "/api/v1/devices/{token}/web-apps/{id}/permission", cluster: .tokenOwner) {
            router, request throws(AdminError) in
            try request.later(
                router.setWebAppPermission(
                    request[path: "id"], in: router.install(request), body: request.body, on: request.eventLoop))
        },
        AdminRoute("POST", "/api/v1/devices/{token}/web-apps/{id}/show", cluster: .tokenOwner) {
            router, request throws(AdminError) in
            try request.later(
                router.showWebAppNotification(
                    request[path: "id"], in: router.install(request), body: request.body, on: request.eventLoop))
        },
    ]
}

import APNsCore
import APNsDevice
import NIOCore

/// The admin API's door to ``WebAppOperations``: the device is the one the path's token's app is
/// on; the body is read into the action's document here, and the answer is the web app as JSON,
/// or the ``PhoneRefusal`` as its status. They hold the phone's web apps and nothing else.
struct WebAppRoutes: Sendable {
    typealias Response = AdminRouter.Response
    let webApps: PhoneWebApps
    var webAppOperations: WebAppOperations { WebAppOperations(webApps: self.webApps) }

    /// `POST /api/v1/devices/<token>/web-apps`: a web app on the device `install` is on
    /// subscribes; 201 with the web app and its `subscription` as `PushSubscription.toJSON()`.
    func subscribeWebApp(
        host token: DeviceToken, in install: AppInstall, body: [UInt8], on eventLoop: any EventLoop
    ) throws(AdminError) -> EventLoopFuture<Response> {
        let host = PhoneWebApps.WebAppHost(hostToken: token.hex, hostInstall: install, deviceID: nil)
        let document = try AdminRouter.readPhoneDocument(WebAppOperations.readSubscription(body))
        return self.webAppOperations.subscribe(host, document, on: eventLoop)
            .map { Response(status: 201, body: self.webApps.json($0)) }.failingAsRefusal()
    }

    /// `GET /api/v1/devices/<token>/web-apps`: the web apps on the device `install` is on.
    func webApps(in install: AppInstall) -> Response {
        Response(status: 200, body: self.webApps.json(webApps: self.webAppOperations.list(device: install.deviceID)))
    }

    /// `GET …/web-apps/<id>`.
    func webApp(_ id: String, in install: AppInstall) throws(AdminError) -> Response {
        switch self.webAppOperations.read(id, device: install.deviceID) {
        case .success(let webApp): Response(status: 200, body: self.webApps.json(webApp))
        case .failure(let refusal): throw AdminError(refusal)
        }
    }

    /// `POST …/web-apps/<id>/unsubscribe`: `PushSubscription.unsubscribe()`.
    func unsubscribeWebApp(_ id: String, in install: AppInstall, on eventLoop: any EventLoop) -> EventLoopFuture<Response> {
        self.webAppOperations.unsubscribe(id, device: install.deviceID, on: eventLoop)
            .map { Response(status: 200, body: self.webApps.json($0)) }.failingAsRefusal()
    }

    /// `PUT …/web-apps/<id>/permission`: the user changes the origin's notification permission.
    func setWebAppPermission(
        _ id: String, in install: AppInstall, body: [UInt8], on eventLoop: any EventLoop
    ) throws(AdminError) -> EventLoopFuture<Response> {
        let permission = try AdminRouter.readPhoneDocument(WebAppOperations.readPermission(body))
        return self.webAppOperations.setPermission(id, permission, device: install.deviceID, on: eventLoop)
            .map { Response(status: 200, body: self.webApps.json($0)) }.failingAsRefusal()
    }

    /// `POST …/web-apps/<id>/show`: the service worker's `showNotification`; 201 with what
    /// Notification Center holds.
    func showWebAppNotification(
        _ id: String, in install: AppInstall, body: [UInt8], on eventLoop: any EventLoop
    ) throws(AdminError) -> EventLoopFuture<Response> {
        let show = try AdminRouter.readPhoneDocument(WebAppOperations.readShow(body))
        return self.webAppOperations.show(id, show, device: install.deviceID, on: eventLoop)
            .map { Response(status: 201, body: Phone.json($0)) }.failingAsRefusal()
    }

    /// Their entries in ``AdminRoute/table``.
    static let routes: [AdminRoute] = [
        AdminRoute("GET", "/api/v1/devices/{token}/web-apps", cluster: .tokenOwner, on: \.webAppRoutes) {
            routes, request throws(AdminError) in
            try request.now(routes.webApps(in: request.install(on: routes.webApps.apps)))
        },
        AdminRoute("POST", "/api/v1/devices/{token}/web-apps", cluster: .tokenOwner, on: \.webAppRoutes) {
            routes, request throws(AdminError) in
            let token = try request.deviceToken()
            let install = try AdminRouter.install(of: token, on: routes.webApps.apps)
            return try request.later(routes.subscribeWebApp(host: token, in: install, body: request.body, on: request.eventLoop))
        },
        AdminRoute("GET", "/api/v1/devices/{token}/web-apps/{id}", cluster: .tokenOwner, on: \.webAppRoutes) {
            routes, request throws(AdminError) in
            try request.now(routes.webApp(request[path: "id"], in: request.install(on: routes.webApps.apps)))
        },
        AdminRoute("POST", "/api/v1/devices/{token}/web-apps/{id}/unsubscribe", cluster: .tokenOwner, on: \.webAppRoutes) {
            routes, request throws(AdminError) in
            try request.later(
                routes.unsubscribeWebApp(request[path: "id"], in: request.install(on: routes.webApps.apps), on: request.eventLoop)
            )
        },
        AdminRoute("PUT", "/api/v1/devices/{token}/web-apps/{id}/permission", cluster: .tokenOwner, on: \.webAppRoutes) {
            routes, request throws(AdminError) in
            try request.later(
                routes.setWebAppPermission(
                    request[path: "id"], in: request.install(on: routes.webApps.apps), body: request.body, on: request.eventLoop))
        },
        AdminRoute("POST", "/api/v1/devices/{token}/web-apps/{id}/show", cluster: .tokenOwner, on: \.webAppRoutes) {
            routes, request throws(AdminError) in
            try request.later(
                routes.showWebAppNotification(
                    request[path: "id"], in: request.install(on: routes.webApps.apps), body: request.body, on: request.eventLoop))
        },
    ]
}

extension AdminRouter {
    var webAppRoutes: WebAppRoutes { WebAppRoutes(webApps: self.phone.webApps) }
}

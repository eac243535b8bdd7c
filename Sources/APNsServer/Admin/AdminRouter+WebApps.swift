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
            .recover(Self.refusal)
    }

    /// `GET /api/v1/devices/<token>/web-apps`: the web apps on the device `install` is on.
    func webApps(in install: AppInstall) -> Response {
        Response(status: 200, body: self.webAppOperations.list(device: install.deviceID))
    }

    /// `GET …/web-apps/<id>`.
    func webApp(_ id: String, in install: AppInstall) -> Response {
        switch self.webAppOperations.read(id, device: install.deviceID) {
        case .success(let body): Response(status: 200, body: body)
        case .failure(let refusal): Self.refusal(refusal)
        }
    }

    /// `POST …/web-apps/<id>/unsubscribe`: `PushSubscription.unsubscribe()`.
    func unsubscribeWebApp(_ id: String, in install: AppInstall, on eventLoop: any EventLoop) -> EventLoopFuture<Response> {
        self.webAppOperations.unsubscribe(id, device: install.deviceID, on: eventLoop).map { Response(status: 200, body: $0) }
            .recover(Self.refusal)
    }

    /// `PUT …/web-apps/<id>/permission`: the user changes the origin's notification permission.
    func setWebAppPermission(
        _ id: String, in install: AppInstall, body: [UInt8], on eventLoop: any EventLoop
    ) -> EventLoopFuture<Response> {
        self.webAppOperations.setPermission(id, body, device: install.deviceID, on: eventLoop)
            .map { Response(status: 200, body: $0) }.recover(Self.refusal)
    }

    /// `POST …/web-apps/<id>/show`: the service worker's `showNotification`; 201 with what
    /// Notification Center holds.
    func showWebAppNotification(
        _ id: String, in install: AppInstall, body: [UInt8], on eventLoop: any EventLoop
    ) -> EventLoopFuture<Response> {
        self.webAppOperations.show(id, body, device: install.deviceID, on: eventLoop).map { Response(status: 201, body: $0) }
            .recover(Self.refusal)
    }
}

/// The routes of this concern: their entries in ``AdminRoute/table``.
extension AdminRoute {
    static let webApps: [AdminRoute] = [
        AdminRoute("GET", "/api/v1/devices/{token}/web-apps", cluster: .tokenOwner) { router, request in
            request.token { router.withInstall(of: $0, request) { request.now(router.webApps(in: $0)) } }
        },
        AdminRoute("POST", "/api/v1/devices/{token}/web-apps", cluster: .tokenOwner) { router, request in
            request.token { token in
                router.withInstall(of: token, request) {
                    request.later(router.subscribeWebApp(host: token, in: $0, body: request.body, on: request.eventLoop))
                }
            }
        },
        AdminRoute("GET", "/api/v1/devices/{token}/web-apps/{id}", cluster: .tokenOwner) { router, request in
            request.token { router.withInstall(of: $0, request) { request.now(router.webApp(request[path: "id"], in: $0)) } }
        },
        AdminRoute("POST", "/api/v1/devices/{token}/web-apps/{id}/unsubscribe", cluster: .tokenOwner) { router, request in
            request.token {
                router.withInstall(of: $0, request) {
                    request.later(router.unsubscribeWebApp(request[path: "id"], in: $0, on: request.eventLoop))
                }
            }
        },
        AdminRoute("PUT", "/api/v1/devices/{token}/web-apps/{id}/permission", cluster: .tokenOwner) { router, request in
            request.token {
                router.withInstall(of: $0, request) {
                    request.later(
                        router.setWebAppPermission(request[path: "id"], in: $0, body: request.body, on: request.eventLoop))
                }
            }
        },
        AdminRoute("POST", "/api/v1/devices/{token}/web-apps/{id}/show", cluster: .tokenOwner) { router, request in
            request.token {
                router.withInstall(of: $0, request) {
                    request.later(
                        router.showWebAppNotification(request[path: "id"], in: $0, body: request.body, on: request.eventLoop))
                }
            }
        },
    ]
}

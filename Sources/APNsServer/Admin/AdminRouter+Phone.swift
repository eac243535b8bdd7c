import APNsCore
import APNsDevice
import APNsInspection
import APNsStore
import NIOCore

extension AdminRouter {
    /// The answer for the app `token` belongs to; 404 (or 500) when there is none.
    func withInstall(
        of token: DeviceToken, _ request: Request, _ answer: (AppInstall) -> EventLoopFuture<Reply>
    ) -> EventLoopFuture<Reply> {
        let found = self.phoneInstall(of: token)
        guard let install = found.install else { return request.now(found.refusal) }
        return answer(install)
    }

    /// The app a token belongs to, or (`install` nil) the answer saying why there is none.
    func phoneInstall(of token: DeviceToken) -> (install: AppInstall?, refusal: Response) {
        do {
            guard let install = try self.phone.install(of: token) else {
                return (
                    nil,
                    Self.error(
                        .notFound,
                        "token \(token.hex) is not known to the emulator: a device registers it, or POST /api/v1/devices")
                )
            }
            return (install, Response(status: 200, body: []))  // not a refusal: never sent
        } catch {
            return (nil, Self.error(.internalError, "could not read the token: \(error)"))
        }
    }

    var appOperations: AppOperations { AppOperations(phone: self.phone) }

    func app(of token: DeviceToken) -> Response {
        let found = self.phoneInstall(of: token)
        guard let install = found.install else { return found.refusal }
        return Self.answer(self.appOperations.read(install, token: token))
    }

    /// `PUT .../app`: what a user changes in Settings, or a test arranges. The device, if
    /// connected with version 2, hears of the change.
    func changeApp(of token: DeviceToken, body: [UInt8], on eventLoop: any EventLoop) -> EventLoopFuture<Response> {
        let found = self.phoneInstall(of: token)
        guard let install = found.install else { return eventLoop.makeSucceededFuture(found.refusal) }
        return self.appOperations.update(install, body, by: .user, on: eventLoop).map { app in
            self.hub.inform(token, .app(topic: install.topic, document: Phone.json(app)))
            return Response(
                status: 200, body: PhoneJSON.app(app, token: token.hex, topic: install.topic, deviceID: install.deviceID))
        }.recover(Self.refusal)
    }

    func delivered(of token: DeviceToken) -> Response {
        let found = self.phoneInstall(of: token)
        guard let install = found.install else { return found.refusal }
        return Self.answer(self.appOperations.delivered(install))
    }

    /// `DELETE .../delivered[/<id>]`: clears Notification Center, or one notification from it
    /// (404 when it is not there), as an app's `removeDeliveredNotifications` does.
    func removeDelivered(of token: DeviceToken, _ uniqueID: String?, on eventLoop: any EventLoop) -> EventLoopFuture<Response> {
        let found = self.phoneInstall(of: token)
        guard let install = found.install else { return eventLoop.makeSucceededFuture(found.refusal) }
        return self.appOperations.removeDelivered(uniqueID, from: install, on: eventLoop)
            .map { Response(status: 200, body: Array(#"{"removed":\#($0)}"#.utf8)) }.recover(Self.refusal)
    }

    /// `POST /api/v1/notifications/<uniqueId>/respond`: the user taps, picks an action, replies or
    /// dismisses. 409 when that is not offered on screen; the device hears of it.
    func respond(to uniqueID: String, body: [UInt8], on eventLoop: any EventLoop) -> EventLoopFuture<Response> {
        let document: RespondDocument
        do {
            document = try RequestDocument.decode(RespondDocument.self, from: body, example: RespondDocument.example)
        } catch {
            return eventLoop.makeSucceededFuture(Self.refusal(error))
        }
        return self.appOperations.respond(
            to: uniqueID, action: document.action, text: document.text, context: document.context, on: eventLoop
        ).map { token, response in
            self.hub.inform(token, .response(uniqueID: uniqueID, document: Phone.json(response)))
            return Response(status: 200, body: Array(PhoneJSON.encoded(response).utf8))
        }.recover(Self.refusal)
    }
}

/// The routes of this concern: their entries in ``AdminRoute/table``.
extension AdminRoute {
    static let phone: [AdminRoute] = [
        AdminRoute("GET", "/api/v1/devices/{token}/app", cluster: .tokenOwner) { router, request in
            request.token { request.now(router.app(of: $0)) }
        },
        AdminRoute("PUT", "/api/v1/devices/{token}/app", cluster: .tokenOwner) { router, request in
            request.token { request.later(router.changeApp(of: $0, body: request.body, on: request.eventLoop)) }
        },
        AdminRoute("GET", "/api/v1/devices/{token}/delivered", cluster: .tokenOwner) { router, request in
            request.token { request.now(router.delivered(of: $0)) }
        },
        AdminRoute("DELETE", "/api/v1/devices/{token}/delivered", cluster: .tokenOwner) { router, request in
            request.token { request.later(router.removeDelivered(of: $0, nil, on: request.eventLoop)) }
        },
        AdminRoute("DELETE", "/api/v1/devices/{token}/delivered/{id}", cluster: .tokenOwner) { router, request in
            request.token { request.later(router.removeDelivered(of: $0, request[path: "id"], on: request.eventLoop)) }
        },
        AdminRoute("GET", "/api/v1/devices/{token}/pending", cluster: .tokenOwner) { router, request in
            request.token { request.now(router.pending(of: $0)) }
        },
        AdminRoute("POST", "/api/v1/devices/{token}/pending", cluster: .tokenOwner) { router, request in
            request.token { request.later(router.schedule(for: $0, body: request.body, on: request.eventLoop)) }
        },
        AdminRoute("DELETE", "/api/v1/devices/{token}/pending", cluster: .tokenOwner) { router, request in
            request.token { request.later(router.cancel(for: $0, nil, on: request.eventLoop)) }
        },
        AdminRoute("DELETE", "/api/v1/devices/{token}/pending/{id}", cluster: .tokenOwner) { router, request in
            request.token { request.later(router.cancel(for: $0, request[path: "id"], on: request.eventLoop)) }
        },
        AdminRoute("POST", "/api/v1/devices/{token}/location", cluster: .tokenOwner) { router, request in
            request.token { request.later(router.move($0, body: request.body, on: request.eventLoop)) }
        },
    ]
}

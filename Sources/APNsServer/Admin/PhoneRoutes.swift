import APNsCore
import APNsDevice
import APNsInspection
import APNsStore
import NIOCore

/// What a user does to an app on the phone and sees there: its settings (`/app`), its
/// Notification Center (`/delivered`), and responses to what it shows (`/respond`); a connected
/// device hears of each. They hold the phone and the delivery hub, and nothing else.
struct PhoneRoutes: Sendable {
    typealias Response = AdminRouter.Response
    let phone: Phone
    let hub: DeliveryHub

    var appOperations: AppOperations { AppOperations(phone: self.phone) }

    func app(of token: DeviceToken) throws(AdminError) -> Response {
        let install = try AdminRouter.install(of: token, on: self.phone.apps)
        return try AdminRouter.answer(self.appOperations.read(install, token: token))
    }

    /// `PUT .../app`: what a user changes in Settings, or a test arranges. The device, if
    /// connected with version 2, hears of the change.
    func changeApp(
        of token: DeviceToken, body: [UInt8], on eventLoop: any EventLoop
    ) throws(AdminError) -> EventLoopFuture<Response> {
        let install = try AdminRouter.install(of: token, on: self.phone.apps)
        let update = try AdminRouter.readPhoneDocument(AppOperations.readUpdate(body))
        return self.appOperations.update(install, update, by: .user, on: eventLoop).map { app in
            self.hub.inform(token, .app(topic: install.topic, document: Phone.json(app)))
            return Response(
                status: 200, body: PhoneJSON.app(app, token: token.hex, topic: install.topic, deviceID: install.deviceID))
        }.failingAsRefusal()
    }

    func delivered(of token: DeviceToken) throws(AdminError) -> Response {
        let install = try AdminRouter.install(of: token, on: self.phone.apps)
        return try AdminRouter.answer(self.appOperations.delivered(install))
    }

    /// `DELETE .../delivered[/<id>]`: clears Notification Center, or one notification from it
    /// (404 when it is not there), as an app's `removeDeliveredNotifications` does.
    func removeDelivered(
        of token: DeviceToken, _ uniqueID: String?, on eventLoop: any EventLoop
    ) throws(AdminError) -> EventLoopFuture<Response> {
        let install = try AdminRouter.install(of: token, on: self.phone.apps)
        return self.appOperations.removeDelivered(uniqueID, from: install, on: eventLoop)
            .map { Response(status: 200, body: Array(#"{"removed":\#($0)}"#.utf8)) }.failingAsRefusal()
    }

    /// `POST /api/v1/notifications/<uniqueId>/respond`: the user taps, picks an action, replies or
    /// dismisses. 409 when that is not offered on screen; the device hears of it.
    func respond(to uniqueID: String, body: [UInt8], on eventLoop: any EventLoop) throws(AdminError) -> EventLoopFuture<Response>
    {
        let document: RespondDocument
        do {
            document = try RequestDocument.decode(RespondDocument.self, from: body, example: RespondDocument.example)
        } catch {
            throw AdminError(PhoneRefusal(error))
        }
        return self.appOperations.respond(
            to: uniqueID, action: document.action, text: document.text, context: document.context, on: eventLoop
        ).map { token, response in
            self.hub.inform(token, .response(uniqueID: uniqueID, document: Phone.json(response)))
            return Response(status: 200, body: Array(PhoneJSON.encoded(response).utf8))
        }.failingAsRefusal()
    }

    /// Their entries in ``AdminRoute/table``.
    static let routes: [AdminRoute] = [
        AdminRoute("GET", "/api/v1/devices/{token}/app", cluster: .tokenOwner, on: \.phoneRoutes) {
            routes, request throws(AdminError) in
            try request.now(routes.app(of: request.deviceToken()))
        },
        AdminRoute("PUT", "/api/v1/devices/{token}/app", cluster: .tokenOwner, on: \.phoneRoutes) {
            routes, request throws(AdminError) in
            try request.later(routes.changeApp(of: request.deviceToken(), body: request.body, on: request.eventLoop))
        },
        AdminRoute("GET", "/api/v1/devices/{token}/delivered", cluster: .tokenOwner, on: \.phoneRoutes) {
            routes, request throws(AdminError) in
            try request.now(routes.delivered(of: request.deviceToken()))
        },
        AdminRoute("DELETE", "/api/v1/devices/{token}/delivered", cluster: .tokenOwner, on: \.phoneRoutes) {
            routes, request throws(AdminError) in
            try request.later(routes.removeDelivered(of: request.deviceToken(), nil, on: request.eventLoop))
        },
        AdminRoute("DELETE", "/api/v1/devices/{token}/delivered/{id}", cluster: .tokenOwner, on: \.phoneRoutes) {
            routes, request throws(AdminError) in
            try request.later(routes.removeDelivered(of: request.deviceToken(), request[path: "id"], on: request.eventLoop))
        },
        AdminRoute("POST", "/api/v1/notifications/{id}/respond", cluster: .uniqueIDOwner, on: \.phoneRoutes) {
            routes, request throws(AdminError) in
            try request.later(routes.respond(to: request[path: "id"], body: request.body, on: request.eventLoop))
        },
    ]
}

extension AdminRouter {
    var phoneRoutes: PhoneRoutes { PhoneRoutes(phone: self.phone, hub: self.hub) }

    /// The app `token` belongs to among the phone's `apps`; 404 when there is none: what the routes of the
    /// phone's concerns look a token up with (a path's: ``AdminRouter/Request/install(on:)``).
    static func install(of token: DeviceToken, on apps: PhoneApps) throws(AdminError) -> AppInstall {
        let found: AppInstall?
        do {
            found = try apps.install(of: token)
        } catch {
            throw AdminError(.internalError, "could not read the token: \(error)")
        }
        guard let install = found else {
            throw AdminError(
                .notFound, "token \(token.hex) is not known to the emulator: a device registers it, or POST /api/v1/devices")
        }
        return install
    }
}

extension AdminRouter.Request {
    /// The app the path's `{token}` belongs to among the phone's `apps`; 400 when it is not a token, 404 when there is none.
    func install(on apps: PhoneApps) throws(AdminError) -> AppInstall {
        try AdminRouter.install(of: self.deviceToken(), on: apps)
    }
}

import APNsCore
import APNsDevice
import APNsInspection
import NIOCore

extension AdminRouter {
    /// `POST /api/v1/devices/<token>/web-apps`: a web app on the device `install` is on
    /// subscribes; 201 with the web app and its `subscription` as `PushSubscription.toJSON()`.
    func subscribeWebApp(
        host token: DeviceToken, in install: AppInstall, body: [UInt8], on eventLoop: any EventLoop
    ) -> EventLoopFuture<Response> {
        self.withDocument(WebAppDocument.self, body, example: WebAppDocument.example, on: eventLoop) { document in
            let host = Phone.WebAppHost(hostToken: token.hex, hostInstall: install, deviceID: nil)
            return self.phone.subscribeWebApp(host, document, on: eventLoop).map { webApp in
                Response(status: 201, body: self.phone.json(webApp))
            }.recover(Self.refusal)
        }
    }

    /// `GET /api/v1/devices/<token>/web-apps`: the web apps on the device `install` is on.
    func webApps(in install: AppInstall) -> Response {
        var writer = JSONWriter()
        writer.array(self.phone.webApps(on: install.deviceID)) { writer, webApp in writer.raw(self.phone.json(webApp)) }
        return Response(status: 200, body: writer.bytes)
    }

    /// `GET …/web-apps/<id>`.
    func webApp(_ id: String, in install: AppInstall) -> Response {
        guard let webApp = self.phone.webApps(on: install.deviceID).first(where: { $0.id == id }) else {
            return Self.error(.notFound, "no web app \(id) on this device")
        }
        return Response(status: 200, body: self.phone.json(webApp))
    }

    /// `POST …/web-apps/<id>/unsubscribe`: `PushSubscription.unsubscribe()`.
    func unsubscribeWebApp(_ id: String, in install: AppInstall, on eventLoop: any EventLoop) -> EventLoopFuture<Response> {
        self.onWebApp(id, in: install, on: eventLoop) { self.phone.unsubscribeWebApp(id, on: eventLoop) }
    }

    /// `PUT …/web-apps/<id>/permission`: the user changes the origin's notification permission.
    func setWebAppPermission(
        _ id: String, in install: AppInstall, body: [UInt8], on eventLoop: any EventLoop
    ) -> EventLoopFuture<Response> {
        self.withDocument(WebAppPermissionDocument.self, body, example: WebAppPermissionDocument.example, on: eventLoop) {
            document in
            self.onWebApp(id, in: install, on: eventLoop) {
                self.phone.setWebAppPermission(id, document.permission, on: eventLoop)
            }
        }
    }

    /// `POST …/web-apps/<id>/show`: the service worker's `showNotification`; 201 with what
    /// Notification Center holds.
    func showWebAppNotification(
        _ id: String, in install: AppInstall, body: [UInt8], on eventLoop: any EventLoop
    ) -> EventLoopFuture<Response> {
        self.withDocument(WebAppShowDocument.self, body, example: WebAppShowDocument.example, on: eventLoop) { document in
            guard self.isOnDevice(id, install) else {
                return eventLoop.makeSucceededFuture(Self.error(.notFound, "no web app \(id) on this device"))
            }
            return self.phone.showWebNotification(id, document, on: eventLoop).map { delivered in
                Response(status: 201, body: Phone.json(delivered))
            }.recover(Self.refusal)
        }
    }

    /// `body` decoded as `T` and handed to `then`, or 400 saying what is wrong with it.
    private func withDocument<T: Decodable>(
        _ type: T.Type, _ body: [UInt8], example: String, on eventLoop: any EventLoop,
        _ then: (T) -> EventLoopFuture<Response>
    ) -> EventLoopFuture<Response> {
        do {
            return then(try RequestDocument.decode(T.self, from: body, example: example))
        } catch {
            return eventLoop.makeSucceededFuture(Self.error(.badRequest, error.message))
        }
    }

    /// Whether the web app `id` is on the device `install` is on.
    private func isOnDevice(_ id: String, _ install: AppInstall) -> Bool {
        self.phone.webApps(on: install.deviceID).contains { $0.id == id }
    }

    /// Answers with the web app `id` (of the device `install` is on) after `change`.
    private func onWebApp(
        _ id: String, in install: AppInstall, on eventLoop: any EventLoop,
        _ change: () -> EventLoopFuture<(WebApp, AppModel)>
    ) -> EventLoopFuture<Response> {
        guard self.isOnDevice(id, install) else {
            return eventLoop.makeSucceededFuture(Self.error(.notFound, "no web app \(id) on this device"))
        }
        return change().map { webApp, _ in Response(status: 200, body: self.phone.json(webApp)) }.recover(Self.refusal)
    }
}

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
        let document: WebAppDocument
        do {
            document = try RequestDocument.decode(WebAppDocument.self, from: body, example: WebAppDocument.example)
        } catch {
            return eventLoop.makeSucceededFuture(Self.error(.badRequest, error.message))
        }
        return self.phone.subscribeWebApp(host: token, hostInstall: install, document, on: eventLoop).map { webApp in
            Response(status: 201, body: self.webAppJSON(webApp))
        }.recover(Self.refusal)
    }

    /// `GET /api/v1/devices/<token>/web-apps`: the web apps on the device `install` is on.
    func webApps(in install: AppInstall) -> Response {
        let apps = self.phone.webApps(on: install.deviceID)
        var writer = JSONWriter()
        writer.array(apps) { writer, webApp in writer.raw(self.webAppJSON(webApp)) }
        return Response(status: 200, body: writer.bytes)
    }

    /// `GET …/web-apps/<id>`.
    func webApp(_ id: String, in install: AppInstall) -> Response {
        guard let webApp = self.phone.webApps(on: install.deviceID).first(where: { $0.id == id }) else {
            return Self.error(.notFound, "no web app \(id) on this device")
        }
        return Response(status: 200, body: self.webAppJSON(webApp))
    }

    /// `POST …/web-apps/<id>/unsubscribe`: `PushSubscription.unsubscribe()`; pushes to the
    /// endpoint answer 410 from now on.
    func unsubscribeWebApp(_ id: String, in install: AppInstall, on eventLoop: any EventLoop) -> EventLoopFuture<Response> {
        self.changeWebApp(id, in: install, on: eventLoop) { webApp, _ in
            if webApp.isSubscribed {
                webApp.unsubscribedAt = self.clock.nowMillis
                webApp.unsubscribedBecause = "the web app unsubscribed (PushSubscription.unsubscribe())"
            }
        }
    }

    /// `PUT …/web-apps/<id>/permission`: the user changes the origin's notification permission
    /// in Settings. The subscription stays: pushes are still accepted (201), and nothing is
    /// shown while it is not granted (Apple Developer Forums thread 719990).
    func setWebAppPermission(
        _ id: String, in install: AppInstall, body: [UInt8], on eventLoop: any EventLoop
    ) -> EventLoopFuture<
        Response
    > {
        let document: WebAppPermissionDocument
        do {
            document = try RequestDocument.decode(
                WebAppPermissionDocument.self, from: body, example: WebAppPermissionDocument.example)
        } catch {
            return eventLoop.makeSucceededFuture(Self.error(.badRequest, error.message))
        }
        return self.changeWebApp(id, in: install, on: eventLoop) { webApp, app in
            webApp.permission = document.permission
            let granted = document.permission == .granted
            app.authorization = Authorization(
                status: granted ? .authorized : .denied, alert: granted, sound: granted, badge: granted)
        }
    }

    /// `POST …/web-apps/<id>/show`: the service worker's `showNotification`, for the oldest push
    /// still waiting for one; 201 with what the phone showed.
    func showWebAppNotification(
        _ id: String, in install: AppInstall, body: [UInt8], on eventLoop: any EventLoop
    ) -> EventLoopFuture<
        Response
    > {
        let document: WebAppShowDocument
        do {
            document = try RequestDocument.decode(WebAppShowDocument.self, from: body, example: WebAppShowDocument.example)
        } catch {
            return eventLoop.makeSucceededFuture(Self.error(.badRequest, error.message))
        }
        guard self.phone.webApps(on: install.deviceID).contains(where: { $0.id == id }) else {
            return eventLoop.makeSucceededFuture(Self.error(.notFound, "no web app \(id) on this device"))
        }
        let uniqueID = self.phone.ids.withLock { $0.uuid() }
        let now = self.clock.nowMillis
        let shown = self.phone.changeWebApp(id, on: eventLoop) { webApp, app throws(DeviceModelError) in
            guard webApp.isSubscribed else {
                throw DeviceModelError(
                    .refused, field: "id", "the web app's subscription ended: its service worker gets no pushes")
            }
            let (_, after) = try WebPushReceiver.show(
                title: document.title, body: document.body, navigate: document.navigate, uniqueID: uniqueID, at: now, to: app)
            app = after
            webApp = after.webApp ?? webApp
        }
        return shown.map { _, app in
            guard let delivered = app.delivered.last(where: { $0.uniqueID == uniqueID }) else {
                return Self.error(.conflict, "nothing was shown")
            }
            return Response(status: 201, body: Phone.json(delivered))
        }.recover(Self.refusal)
    }

    private func changeWebApp(
        _ id: String, in install: AppInstall, on eventLoop: any EventLoop,
        _ body: @escaping (inout WebApp, inout AppModel) throws(DeviceModelError) -> Void
    ) -> EventLoopFuture<Response> {
        guard self.phone.webApps(on: install.deviceID).contains(where: { $0.id == id }) else {
            return eventLoop.makeSucceededFuture(Self.error(.notFound, "no web app \(id) on this device"))
        }
        return self.phone.changeWebApp(id, on: eventLoop, body).map { webApp, _ in
            Response(status: 200, body: self.webAppJSON(webApp))
        }.recover(Self.refusal)
    }

    /// The endpoint of a subscription: the Web Push service's address and the id.
    func webPushEndpoint(_ id: String) -> String {
        let address = self.readiness.address(.webPush)
        var host = address?.ipAddress ?? "localhost"
        if host == "0.0.0.0" || host == "::" { host = "localhost" } else if host.contains(":") { host = "[\(host)]" }
        return "https://\(host):\(address?.port ?? 0)/push/\(id)"
    }

    func webAppJSON(_ webApp: WebApp) -> [UInt8] {
        let endpoint = self.webPushEndpoint(webApp.id)
        var writer = JSONWriter()
        writer.object { members in
            members.member("id") { $0.string(webApp.id) }
            members.member("origin") { $0.string(webApp.origin) }
            members.member("kind") { $0.string(webApp.kind.rawValue) }
            members.member("permission") { $0.string(webApp.permission.rawValue) }
            members.member("applicationServerKey") { $0.string(webApp.applicationServerKey) }
            members.member("subscription") { writer in
                writer.object { subscription in
                    subscription.member("endpoint") { $0.string(endpoint) }
                    subscription.member("expirationTime") { $0.raw("null") }
                    subscription.member("keys") { writer in
                        writer.object { keys in
                            keys.member("p256dh") { $0.string(webApp.p256dh) }
                            keys.member("auth") { $0.string(webApp.auth) }
                        }
                    }
                }
            }
            members.member("subscribed") { $0.raw(webApp.isSubscribed ? "true" : "false") }
            members.member("subscribedAt") { $0.number(webApp.subscribedAt) }
            members.member("unsubscribedAt") { writer in webApp.unsubscribedAt.map { writer.number($0) } ?? writer.raw("null") }
            members.member("unsubscribedBecause") { $0.optionalString(webApp.unsubscribedBecause) }
            members.member("token") { $0.string(webApp.token) }
            members.member("hostToken") { $0.string(webApp.hostToken) }
            members.member("awaitingShow") { writer in writer.array(webApp.awaitingShow) { $0.string($1) } }
            members.member("unshownPushes") { $0.number(webApp.unshownPushes) }
        }
        return writer.bytes
    }
}

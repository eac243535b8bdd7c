import APNsCore
import APNsDevice
import APNsInspection
import NIOCore

/// What the admin API and the device protocol do to a device's web apps, one operation per
/// action: the same documents, the same checks (the web app is on that device), the same
/// refusals (``PhoneRefusal``) and the same JSON. The doors only find the device and write the
/// answer in their wire.
struct WebAppOperations {
    let phone: Phone

    /// The device's web apps, oldest subscription first, as a JSON array.
    func list(device: String) -> [UInt8] {
        var writer = JSONWriter()
        writer.array(self.phone.webApps(on: device)) { writer, webApp in writer.raw(self.phone.json(webApp)) }
        return writer.bytes
    }

    /// One web app on the device, as JSON.
    func read(_ id: String, device: String) -> Result<[UInt8], PhoneRefusal> {
        guard let webApp = self.phone.webApps(on: device).first(where: { $0.id == id }) else {
            return .failure(Self.notOnDevice(id))
        }
        return .success(self.phone.json(webApp))
    }

    /// `PushManager.subscribe`: a web app on `host`'s device subscribes (`WebAppDocument`).
    func subscribe(_ host: Phone.WebAppHost, _ document: [UInt8], on eventLoop: any EventLoop) -> EventLoopFuture<WebApp> {
        do {
            let request = try RequestDocument.decode(WebAppDocument.self, from: document, example: WebAppDocument.example)
            return self.phone.subscribeWebApp(host, request, on: eventLoop).flatMapErrorThrowing { throw PhoneRefusal($0) }
        } catch {
            return eventLoop.makeFailedFuture(PhoneRefusal(error))
        }
    }

    /// `PushSubscription.unsubscribe()`; the web app as JSON.
    func unsubscribe(_ id: String, device: String, on eventLoop: any EventLoop) -> EventLoopFuture<[UInt8]> {
        self.change(id, device: device, on: eventLoop) { self.phone.unsubscribeWebApp(id, on: eventLoop) }
    }

    /// The user changes the origin's notification permission (`WebAppPermissionDocument`).
    func setPermission(_ id: String, _ document: [UInt8], device: String, on eventLoop: any EventLoop) -> EventLoopFuture<[UInt8]>
    {
        self.change(id, device: device, on: eventLoop) {
            let permission = try RequestDocument.decode(
                WebAppPermissionDocument.self, from: document, example: WebAppPermissionDocument.example)
            return self.phone.setWebAppPermission(id, permission.permission, on: eventLoop)
        }
    }

    /// The service worker's `showNotification` (`WebAppShowDocument`); what Notification Center holds, as JSON.
    func show(_ id: String, _ document: [UInt8], device: String, on eventLoop: any EventLoop) -> EventLoopFuture<[UInt8]> {
        guard self.isOnDevice(id, device) else { return eventLoop.makeFailedFuture(Self.notOnDevice(id)) }
        do {
            let show = try RequestDocument.decode(WebAppShowDocument.self, from: document, example: WebAppShowDocument.example)
            return self.phone.showWebNotification(id, show, on: eventLoop).map { Phone.json($0) }
                .flatMapErrorThrowing { throw PhoneRefusal($0) }
        } catch {
            return eventLoop.makeFailedFuture(PhoneRefusal(error))
        }
    }

    /// The web app `id` (of `device`) as JSON after `change`.
    private func change(
        _ id: String, device: String, on eventLoop: any EventLoop, _ change: () throws -> EventLoopFuture<(WebApp, AppModel)>
    ) -> EventLoopFuture<[UInt8]> {
        guard self.isOnDevice(id, device) else { return eventLoop.makeFailedFuture(Self.notOnDevice(id)) }
        do {
            return try change().map { webApp, _ in self.phone.json(webApp) }.flatMapErrorThrowing { throw PhoneRefusal($0) }
        } catch {
            return eventLoop.makeFailedFuture(PhoneRefusal(error))
        }
    }

    private func isOnDevice(_ id: String, _ device: String) -> Bool {
        self.phone.webApps(on: device).contains { $0.id == id }
    }

    private static func notOnDevice(_ id: String) -> PhoneRefusal { .notFound("no web app \(id) on this device") }
}

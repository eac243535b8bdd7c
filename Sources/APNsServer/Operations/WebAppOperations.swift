import APNsCore
import APNsDevice
import APNsInspection
import NIOCore

/// What the admin API and the device protocol do to a device's web apps, one operation per
/// action, on decoded documents: the same checks (the web app is on that device) and the same
/// refusals (``PhoneRefusal``). Each door reads its own wire into the documents and writes the
/// web app back in it (``PhoneWebApps/json(_:)``, ``PhoneWebApps/json(webApps:)``).
struct WebAppOperations {
    let webApps: PhoneWebApps

    /// The device's web apps, oldest subscription first.
    func list(device: String) -> [WebApp] {
        self.webApps.webApps(on: device)
    }

    /// One web app on the device.
    func read(_ id: String, device: String) -> Result<WebApp, PhoneRefusal> {
        guard let webApp = self.webApps.webApps(on: device).first(where: { $0.id == id }) else {
            return .failure(Self.notOnDevice(id))
        }
        return .success(webApp)
    }

    /// `PushManager.subscribe`: a web app on `host`'s device subscribes.
    func subscribe(
        _ host: PhoneWebApps.WebAppHost, _ request: WebAppDocument, on eventLoop: any EventLoop
    ) -> EventLoopFuture<WebApp> {
        self.webApps.subscribeWebApp(host, request, on: eventLoop).flatMapErrorThrowing { throw PhoneRefusal($0) }
    }

    /// `PushSubscription.unsubscribe()`.
    func unsubscribe(_ id: String, device: String, on eventLoop: any EventLoop) -> EventLoopFuture<WebApp> {
        self.change(id, device: device, on: eventLoop) { self.webApps.unsubscribeWebApp(id, on: eventLoop) }
    }

    /// The user changes the origin's notification permission.
    func setPermission(
        _ id: String, _ permission: WebApp.Permission, device: String, on eventLoop: any EventLoop
    ) -> EventLoopFuture<WebApp> {
        self.change(id, device: device, on: eventLoop) { self.webApps.setWebAppPermission(id, permission, on: eventLoop) }
    }

    /// The service worker's `showNotification`: what Notification Center holds.
    func show(
        _ id: String, _ show: WebAppShowDocument, device: String, on eventLoop: any EventLoop
    ) -> EventLoopFuture<DeliveredNotification> {
        guard self.isOnDevice(id, device) else { return eventLoop.makeFailedFuture(Self.notOnDevice(id)) }
        return self.webApps.showWebNotification(id, show, on: eventLoop).flatMapErrorThrowing { throw PhoneRefusal($0) }
    }

    /// The web app `id` (of `device`) after `change`.
    private func change(
        _ id: String, device: String, on eventLoop: any EventLoop, _ change: () -> EventLoopFuture<(WebApp, AppModel)>
    ) -> EventLoopFuture<WebApp> {
        guard self.isOnDevice(id, device) else { return eventLoop.makeFailedFuture(Self.notOnDevice(id)) }
        return change().map { webApp, _ in webApp }.flatMapErrorThrowing { throw PhoneRefusal($0) }
    }

    private func isOnDevice(_ id: String, _ device: String) -> Bool {
        self.webApps.webApps(on: device).contains { $0.id == id }
    }

    private static func notOnDevice(_ id: String) -> PhoneRefusal { .notFound("no web app \(id) on this device") }

    // The actions' documents, read by each door from its bytes: one that does not decode is an
    // invalid refusal naming the field, in the same words at every door.

    static func readSubscription(_ document: [UInt8]) throws(PhoneRefusal) -> WebAppDocument {
        try PhoneRefusal.reading(WebAppDocument.self, from: document, example: WebAppDocument.example)
    }

    static func readPermission(_ document: [UInt8]) throws(PhoneRefusal) -> WebApp.Permission {
        try PhoneRefusal.reading(WebAppPermissionDocument.self, from: document, example: WebAppPermissionDocument.example)
            .permission
    }

    static func readShow(_ document: [UInt8]) throws(PhoneRefusal) -> WebAppShowDocument {
        try PhoneRefusal.reading(WebAppShowDocument.self, from: document, example: WebAppShowDocument.example)
    }
}

import APNsAuth
import APNsCore
import APNsDevice
import APNsInspection
import APNsStore
import NIOCore

extension Phone {
    /// The subscription whose endpoint ends in `id`, as the push service checks a push against it.
    func webAppSubscription(_ id: String) -> WebAppSubscription? { self.webApps.withLock { $0.entry(id)?.subscription } }

    /// Where the web app `id` lives.
    func webAppInstall(_ id: String) -> AppInstall? { self.webApps.withLock { $0.entry(id)?.install } }

    /// The web apps on `device`, oldest first.
    func webApps(on device: String) -> [WebApp] {
        let installs = self.webApps.withLock { index in index.ids(on: device).compactMap { index.entry($0)?.install } }
        return installs.compactMap { try? self.app($0).webApp }.sorted { ($0.subscribedAt, $0.id) < ($1.subscribedAt, $1.id) }
    }

    /// The browser's side of a web push handed over: it opens the body with the subscription's
    /// keys and receives it (``WebPushReceiver``). Under the apps' lock.
    static func receiveWebPush(_ notification: APNsCore.Notification, at now: Int64, app: AppModel) -> (Presentation, AppModel) {
        let envelope = JSONValue.member("webpush", ofObjectIn: notification.payload)
        let facts = WebPushFacts(
            vapidSubject: envelope?["sub"]?.string, urgency: envelope?["urgency"]?.string, topic: envelope?["topic"]?.string)
        let opened: Result<[UInt8], DeviceModelError>
        if let webApp = app.webApp, let text = envelope?["body"]?.string, let body = Base64URL.decode(text.utf8) {
            let keys = WebPushSubscriptionKeys(p256dh: webApp.p256dh, auth: webApp.auth, privateKey: webApp.privateKey)
            // A push without a body is a push event without data (RFC 8030 §5).
            opened =
                body.isEmpty
                ? .success([]) : keys.open(body).mapError { DeviceModelError(.invalid, field: "body", $0.description) }
        } else {
            opened = .failure(DeviceModelError(.invalid, field: "body", "the push's envelope does not read"))
        }
        return WebPushReceiver.receive(opened: opened, facts: facts, uniqueID: notification.uniqueID, at: now, to: app)
    }

    /// A web page or Home Screen web app on the device `host`'s app (`hostInstall`) is on
    /// subscribes, as `PushManager.subscribe` does: new keys, an endpoint id, a token its pushes
    /// queue under. The future holds the web app once it is durable.
    func subscribeWebApp(
        host: DeviceToken, hostInstall: AppInstall, _ document: WebAppDocument, on eventLoop: any EventLoop
    ) -> EventLoopFuture<WebApp> {
        guard document.permission == .granted else {
            return eventLoop.makeFailedFuture(
                DeviceModelError(
                    .refused, field: "permission",
                    "PushManager.subscribe() rejects with NotAllowedError: notifications are not granted for \(document.origin) (permission \(document.permission.rawValue))"
                ))
        }
        guard WebPushSubscriptionKeys.publicKey(document.applicationServerKey) != nil else {
            return eventLoop.makeFailedFuture(
                DeviceModelError(
                    .invalid, field: "applicationServerKey",
                    "PushManager.subscribe() rejects with InvalidAccessError: applicationServerKey must be a P-256 public key, uncompressed (65 bytes), base64url"
                ))
        }
        let keys = WebPushSubscriptionKeys.generate()
        let token = self.newToken()
        var random = SystemRandomNumberGenerator()
        let id = Base64URL.encode((0..<24).map { _ in UInt8.random(in: 0...255, using: &random) })
        let now = self.clock()
        // The web app's pushes queue under a token of its own, registered for its origin.
        let install = AppInstall(deviceID: "token:\(token.hex)", topic: document.origin)
        let hostApp = try? self.app(hostInstall)
        let webApp = WebApp(
            id: id, origin: document.origin, kind: document.kind, permission: document.permission,
            applicationServerKey: document.applicationServerKey, p256dh: keys.p256dh, privateKey: keys.privateKey,
            auth: keys.auth, token: token.hex, hostToken: host.hex, device: hostInstall.deviceID,
            subscribedAt: now)
        let promise = eventLoop.makePromise(of: Void.self)
        self.store.submit([.register(token: token, topic: install.topic, deviceID: nil)]) { result in
            switch result {
            case .success(let outcomes) where outcomes.first == .registered: promise.succeed(())
            case .success(let outcomes): promise.fail(ServerError(.store, subject: "web app token", "\(outcomes)"))
            case .failure(let error): promise.fail(error)
            }
        }
        return promise.futureResult.flatMap {
            self.change(install, on: eventLoop) { app throws(DeviceModelError) in
                app.webApp = webApp
                // The permission the page was granted: alerts, sounds and badges.
                app.authorization = Authorization(status: .authorized, alert: true, sound: true, badge: true)
                if let hostApp {
                    (app.platform, app.iosVersion, app.language, app.timeZone) = (
                        hostApp.platform, hostApp.iosVersion, hostApp.language, hostApp.timeZone
                    )
                }
                return webApp
            }.map(\.0)
        }
    }

    /// Changes the web app `id`: `body` gets its record and the app; the future holds the web
    /// app afterwards. A web app that is gone is refused.
    func changeWebApp(
        _ id: String, on eventLoop: any EventLoop,
        _ body: @escaping (inout WebApp, inout AppModel) throws(DeviceModelError) -> Void
    ) -> EventLoopFuture<(WebApp, AppModel)> {
        guard let install = self.webAppInstall(id) else {
            return eventLoop.makeFailedFuture(DeviceModelError(.notOffered, field: "id", "no web app has the id \(id)"))
        }
        return self.change(install, on: eventLoop) { app throws(DeviceModelError) -> WebApp in
            guard var webApp = app.webApp else { throw DeviceModelError(.notOffered, field: "id", "no web app has the id \(id)") }
            try body(&webApp, &app)
            app.webApp = webApp
            return webApp
        }.map { ($0.0, $0.1) }
    }
}

import APNsAuth
import APNsCore
import APNsDevice
import APNsInspection
import APNsStore
import NIOCore

/// Web pages and Home Screen web apps on the phone: their subscriptions (``WebAppIndex``, by
/// endpoint id), the pushes the browser opens for them, and what their service workers show.
///
/// Thread-safe.
final class PhoneWebApps: Sendable {
    let apps: PhoneApps
    /// The subscriptions by endpoint id.
    let index: IndexLock<WebAppIndex>
    /// Where the Web Push service listens, once it does: subscriptions' endpoints name it.
    let webPushAddress = RankedMutex<SocketAddress?>(.leaf, nil)
    /// The tokens a web app's pushes queue under, and its notifications' ids.
    let ids: EmulatorIDs
    /// A web app subscribed on one of the phone's own devices follows its power state.
    let ownDevices: OwnDeviceBook
    let clock: @Sendable () -> Int64

    init(
        apps: PhoneApps, index: IndexLock<WebAppIndex>, ids: EmulatorIDs, ownDevices: OwnDeviceBook,
        clock: @escaping @Sendable () -> Int64
    ) {
        (self.apps, self.index, self.ids, self.ownDevices, self.clock) = (apps, index, ids, ownDevices, clock)
    }

    /// The subscription whose endpoint ends in `id`, as the push service checks a push against it.
    func webAppSubscription(_ id: String) -> WebAppSubscription? { self.index.withLock { $0.entry(id)?.subscription } }

    /// Where the web app `id` lives.
    func webAppInstall(_ id: String) -> AppInstall? { self.index.withLock { $0.entry(id)?.install } }

    /// The web apps on `device`, oldest first.
    func webApps(on device: String) -> [WebApp] {
        let installs = self.index.withLock { index in index.ids(on: device).compactMap { index.entry($0)?.install } }
        return installs.compactMap { try? self.apps.app($0).webApp }.sorted {
            ($0.subscribedAt, $0.id) < ($1.subscribedAt, $1.id)
        }
    }

    /// What the browser needs of a web push before it decides: the envelope's facts and the body
    /// opened with the subscription's keys (RFC 8030 §5: a push without a body is a push event
    /// without data). Called before the apps' lock is taken: the key agreement and AES-GCM are the
    /// slow part, and the keys do not change while the web app lives.
    func openWebPush(_ notification: APNsCore.Notification, in install: AppInstall) -> OpenedWebPush {
        let envelope = JSONValue.member("webpush", ofObjectIn: notification.payload)
        let facts = WebPushFacts(
            vapidSubject: envelope?["sub"]?.string, urgency: envelope?["urgency"]?.string, topic: envelope?["topic"]?.string)
        guard let webApp = try? self.apps.app(install).webApp, let text = envelope?["body"]?.string,
            let body = Base64URL.decode(text.utf8)
        else {
            return OpenedWebPush(
                facts: facts, opened: .failure(DeviceModelError(.invalid, field: "body", "the push's envelope does not read")))
        }
        let keys = WebPushSubscriptionKeys(p256dh: webApp.p256dh, auth: webApp.auth, privateKey: webApp.privateKey)
        let opened: Result<[UInt8], DeviceModelError> =
            body.isEmpty ? .success([]) : keys.open(body).mapError { DeviceModelError(.invalid, field: "body", $0.description) }
        return OpenedWebPush(facts: facts, opened: opened)
    }

    /// A web push as the browser opened it.
    struct OpenedWebPush {
        var facts: WebPushFacts
        var opened: Result<[UInt8], DeviceModelError>
    }

    /// Where a web app subscribes: on the device of an app the admin API names (`hostToken`;
    /// its pushes are presented as they are accepted, like a token no device holds), or on a
    /// device connected over the device protocol (`deviceID`; its pushes are handed to that
    /// device, stored while it is offline).
    struct WebAppHost {
        var hostToken: String
        /// The host app (its platform, version, language and time zone are the web app's).
        var hostInstall: AppInstall?
        /// The connected device, for a subscription made over the device protocol.
        var deviceID: String?
    }

    /// A web page or Home Screen web app subscribes, as `PushManager.subscribe` does: new keys,
    /// an endpoint id, a token its pushes queue under. The future holds the web app once it is
    /// durable; an origin that already has a subscription on the device with the same key gets
    /// it back (the Push API's subscribe returns the existing subscription).
    func subscribeWebApp(_ host: WebAppHost, _ document: WebAppDocument, on eventLoop: any EventLoop) -> EventLoopFuture<WebApp> {
        if let refusal = Self.subscribeRefusal(document) { return eventLoop.makeFailedFuture(refusal) }
        let keys = WebPushSubscriptionKeys.generate()
        let token = self.ids.newToken()
        var random = SystemRandomNumberGenerator()
        let id = Base64URL.encode((0..<24).map { _ in UInt8.random(in: 0...255, using: &random) })
        // The web app's pushes queue under a token of its own, registered for its origin.
        let install = AppInstall(deviceID: host.deviceID ?? PhoneApps.devicelessID(token), topic: document.origin)
        if host.deviceID != nil, let existing = try? self.apps.app(install).webApp, existing.isSubscribed {
            guard existing.applicationServerKey == document.applicationServerKey else {
                return eventLoop.makeFailedFuture(
                    DeviceModelError(
                        .refused, field: "applicationServerKey",
                        "PushManager.subscribe() rejects with InvalidStateError: \(document.origin) is subscribed with another applicationServerKey; unsubscribe first"
                    ))
            }
            return eventLoop.makeSucceededFuture(existing)
        }
        let hostApp = host.hostInstall.flatMap { try? self.apps.app($0) }
        let webApp = WebApp(
            id: id, origin: document.origin, kind: document.kind, permission: document.permission,
            applicationServerKey: document.applicationServerKey, p256dh: keys.p256dh, privateKey: keys.privateKey,
            auth: keys.auth, token: token.hex, hostToken: host.hostToken,
            device: host.deviceID ?? host.hostInstall?.deviceID ?? install.deviceID, subscribedAt: self.clock())
        let promise = eventLoop.makePromise(of: Void.self)
        self.apps.store.submit([.register(token: token, topic: install.topic, deviceID: host.deviceID)]) { result in
            switch result {
            case .success(let outcomes) where outcomes.first == .registered:
                // On one of the phone's own devices, its pushes follow that device's power state.
                self.ownDevices.issued(token, to: webApp.device)
                promise.succeed(())
            case .success(let outcomes): promise.fail(ServerError(.store, subject: "web app token", "\(outcomes)"))
            case .failure(let error): promise.fail(error)
            }
        }
        return promise.futureResult.flatMap {
            self.apps.change(install, on: eventLoop) { app throws(DeviceModelError) in
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

    /// Why `PushManager.subscribe` would reject `document`, if it would.
    static func subscribeRefusal(_ document: WebAppDocument) -> DeviceModelError? {
        guard document.permission == .granted else {
            return DeviceModelError(
                .refused, field: "permission",
                "PushManager.subscribe() rejects with NotAllowedError: notifications are not granted for \(document.origin) (permission \(document.permission.rawValue))"
            )
        }
        guard WebPushSubscriptionKeys.publicKey(document.applicationServerKey) != nil else {
            return DeviceModelError(
                .invalid, field: "applicationServerKey",
                "PushManager.subscribe() rejects with InvalidAccessError: applicationServerKey must be a P-256 public key, uncompressed (65 bytes), base64url"
            )
        }
        return nil
    }

    /// `PushSubscription.unsubscribe()`: pushes to the endpoint answer 410 from now on.
    func unsubscribeWebApp(_ id: String, on eventLoop: any EventLoop) -> EventLoopFuture<(WebApp, AppModel)> {
        let now = self.clock()
        return self.changeWebApp(id, on: eventLoop) { webApp, _ in
            guard webApp.isSubscribed else { return }
            webApp.unsubscribedAt = now
            webApp.unsubscribedBecause = "the web app unsubscribed (PushSubscription.unsubscribe())"
        }
    }

    /// The user changes the origin's notification permission in Settings. The subscription
    /// stays: pushes are still accepted, and nothing is shown while it is not granted (Apple
    /// Developer Forums thread 719990).
    func setWebAppPermission(
        _ id: String, _ permission: WebApp.Permission, on eventLoop: any EventLoop
    ) -> EventLoopFuture<(WebApp, AppModel)> {
        self.changeWebApp(id, on: eventLoop) { webApp, app in
            webApp.permission = permission
            let granted = permission == .granted
            app.authorization = Authorization(
                status: granted ? .authorized : .denied, alert: granted, sound: granted, badge: granted)
        }
    }

    /// The web app's service worker calls `showNotification` for the oldest push still waiting
    /// for one: the notification Notification Center holds.
    func showWebNotification(
        _ id: String, _ document: WebAppShowDocument, on eventLoop: any EventLoop
    ) -> EventLoopFuture<DeliveredNotification> {
        let now = self.clock()
        let uniqueID = self.ids.timeOrdered(nowMillis: now)
        return self.changeWebApp(id, on: eventLoop) { webApp, app throws(DeviceModelError) in
            guard webApp.isSubscribed else {
                throw DeviceModelError(
                    .refused, field: "id", "the web app's subscription ended: its service worker gets no pushes")
            }
            let (_, after) = try WebPushReceiver.show(
                title: document.title, body: document.body, navigate: document.navigate, uniqueID: uniqueID, at: now, to: app)
            app = after
            webApp = after.webApp ?? webApp
        }.flatMapThrowing { _, app in
            guard let delivered = app.delivered.last(where: { $0.uniqueID == uniqueID }) else {
                throw DeviceModelError(.refused, field: "title", "nothing was shown")
            }
            return delivered
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
        return self.apps.change(install, on: eventLoop) { app throws(DeviceModelError) -> WebApp in
            guard var webApp = app.webApp else { throw DeviceModelError(.notOffered, field: "id", "no web app has the id \(id)") }
            try body(&webApp, &app)
            app.webApp = webApp
            return webApp
        }.map { ($0.0, $0.1) }
    }
}

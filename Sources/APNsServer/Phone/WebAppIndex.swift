import APNsAuth
import APNsCore
import APNsDevice

/// The web apps' subscriptions by endpoint id, kept from the apps: what the Web Push service
/// looks a push's endpoint up in, and where each web app lives.
struct WebAppIndex: AppIndex {
    struct Entry: Sendable {
        var install: AppInstall
        var subscription: WebAppSubscription
        /// The device the web app is on (its host app's device id).
        var device: String
    }

    private(set) var entries: [String: Entry] = [:]

    static func concerns(_ app: AppModel, _ install: AppInstall) -> Bool { app.webApp != nil }

    /// Keeps the index in step with `app` (a web app or not).
    mutating func track(_ app: AppModel, _ install: AppInstall) {
        guard let webApp = app.webApp, let token = DeviceToken(hex: webApp.token) else { return }
        let subscription = WebAppSubscription(
            id: webApp.id, token: token, origin: webApp.origin,
            applicationServerKey: Base64URL.decode(webApp.applicationServerKey.utf8) ?? [],
            ended: webApp.unsubscribedAt.map { at in
                "the subscription ended at \(at) ms: \(webApp.unsubscribedBecause ?? "unsubscribed")"
            })
        self.entries[webApp.id] = Entry(install: install, subscription: subscription, device: webApp.device)
    }

    func entry(_ id: String) -> Entry? { self.entries[id] }

    /// The device each web app's token was subscribed on: where its pushes show.
    func devicesByToken() -> [DeviceToken: String] {
        Dictionary(self.entries.values.map { ($0.subscription.token, $0.device) }, uniquingKeysWith: { first, _ in first })
    }

    /// The web apps on `device`, by id.
    func ids(on device: String) -> [String] {
        self.entries.filter { $0.value.device == device }.map(\.key).sorted()
    }
}

import Foundation

/// A web app subscribed to Web Push on the emulated phone (or a page in Safari on a Mac): what
/// `PushSubscription.toJSON()` gives the page, to hand to the server under test.
public struct WebAppSubscription: Sendable, Equatable {
    /// The subscription's id on the phone.
    public var id: String
    /// The web app's origin (`https://app.example`).
    public var origin: String
    /// `homeScreen` (a Home Screen web app) or `safari` (a page in Safari).
    public var kind: String
    /// Where the server POSTs its pushes (RFC 8030), and the keys it encrypts them with (RFC 8291).
    public var endpoint: String
    /// The subscription's P-256 public key (base64url), which the server encrypts with.
    public var p256dh: String
    /// The subscription's authentication secret (base64url).
    public var auth: String
    /// The token its pushes are journaled under, and its device's app's.
    public var token: String
    /// The token of the device the web app is on.
    public var hostToken: String
}

/// One web push as the emulated browser handled it.
public struct ReceivedWebPush: Sendable, Equatable {
    /// Its id in the journal.
    public var uniqueID: String
    /// `declarative` (Safari showed it), `serviceWorker`, `notAllowed`, `undecryptable`, `unsubscribed`.
    public var outcome: String
    /// The decrypted message (nil when it did not decrypt, or is not UTF-8).
    public var message: String?
    /// Whether the browser showed a notification for it.
    public var shown: Bool
    /// The shown notification's title.
    public var title: String?
    /// The shown notification's body.
    public var body: String?
    /// Where a tap on it goes (Declarative Web Push's `navigate`).
    public var navigate: String?
    /// The app badge it set (Declarative Web Push's `app_badge`).
    public var appBadge: Int?
    /// The `sub` of the push's VAPID token: who sent it.
    public var vapidSubject: String?

    init?(_ item: [String: Any]) {
        guard let presentation = item["presentation"] as? [String: Any], let web = presentation["webPush"] as? [String: Any]
        else { return nil }
        self.uniqueID = item["uniqueId"] as? String ?? item["id"] as? String ?? ""
        self.outcome = web["outcome"] as? String ?? ""
        self.message = web["message"] as? String
        self.shown = presentation["shown"] as? Bool ?? false
        self.title = presentation["title"] as? String
        self.body = presentation["body"] as? String
        self.navigate = web["navigate"] as? String
        self.appBadge = web["appBadge"] as? Int
        self.vapidSubject = web["vapidSubject"] as? String
    }
}

extension TestEmulator {
    /// The Web Push service's port, which subscriptions' endpoints name.
    public var webPushPort: Int { self.addresses.port(.webPush) }

    /// A Home Screen web app (or, with `kind: "safari"`, a page in Safari) subscribing with your
    /// application server's VAPID public key (base64url, 65 bytes uncompressed), as
    /// `PushManager.subscribe` does; on the device of `token` (a new one when nil).
    public func subscribeWebApp(
        applicationServerKey: String, origin: String = "https://app.example", kind: String = "homeScreen",
        permission: String = "granted", token: String? = nil
    ) async throws -> WebAppSubscription {
        let host: String
        if let token { host = token } else { host = try await self.registerDevice(topic: "com.example.browser") }
        let body =
            #"{"origin": \#(Self.quoted(origin)), "kind": \#(Self.quoted(kind)), "permission": \#(Self.quoted(permission)), "applicationServerKey": \#(Self.quoted(applicationServerKey))}"#
        let answer = try await self.admin("/api/v1/devices/\(host)/web-apps", method: "POST", body: body)
        guard answer.status == 201, let made = try answer.json() as? [String: Any],
            let subscription = made["subscription"] as? [String: Any], let keys = subscription["keys"] as? [String: String]
        else { throw TestEmulatorError(message: "subscribe: \(answer.status) \(answer.text)") }
        return WebAppSubscription(
            id: made["id"] as? String ?? "", origin: origin, kind: kind, endpoint: subscription["endpoint"] as? String ?? "",
            p256dh: keys["p256dh"] ?? "", auth: keys["auth"] ?? "", token: made["token"] as? String ?? "", hostToken: host)
    }

    /// The oldest web push `webApp` received that the browser has handled, waiting up to
    /// `timeout` for one.
    public func webPush(_ webApp: WebAppSubscription, timeout: Duration = .seconds(5)) async throws -> ReceivedWebPush {
        guard let last = try await self.webPushes(webApp, atLeast: 1, timeout: timeout).last else {
            throw TestEmulatorError(message: "no web push reached \(webApp.origin) within \(timeout)")
        }
        return last
    }

    /// Every web push `webApp` received, newest first, once the browser handled them; waits up to
    /// `timeout` for `atLeast` of them.
    public func webPushes(
        _ webApp: WebAppSubscription, atLeast: Int = 0, timeout: Duration = .zero
    ) async throws -> [ReceivedWebPush] {
        let deadline = ContinuousClock.now + timeout
        while true {
            let answer = try await self.admin("/api/v1/notifications?interface=webpush&limit=100&token=\(webApp.token)")
            guard answer.status == 200, let page = try answer.json() as? [String: Any] else {
                throw TestEmulatorError(message: "notifications: \(answer.status) \(answer.text)")
            }
            let handled = (page["items"] as? [[String: Any]] ?? []).compactMap(ReceivedWebPush.init)
            if handled.count >= atLeast { return handled }
            guard ContinuousClock.now < deadline else {
                throw TestEmulatorError(
                    message: "\(webApp.origin) received \(handled.count) web pushes within \(timeout), not \(atLeast)")
            }
            try await Task.sleep(for: .milliseconds(50))
        }
    }
}

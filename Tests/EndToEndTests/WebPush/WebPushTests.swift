import APNsServer
import APNsTestSupport
import Foundation
import Testing

/// Web Push to Safari and Home Screen web apps, end to end: a web app subscribes through the
/// admin API, pywebpush and py-vapid (PyPI) push to its endpoint over real TLS exactly as to
/// web.push.apple.com, and the admin API shows what the emulated browser made of each push.
/// Sources: Apple, "Sending web push notifications in web apps and browsers"; RFC 8030, 8291,
/// 8292; WebKit, "Meet Declarative Web Push" (webkit.org/blog/16535).
@Suite("Web Push, end to end")
struct WebPushTests {
    /// A subscribed web app: its admin document, the VAPID key file and the subscription file.
    struct WebApp {
        var document: [String: Any]
        var key: String
        var subscription: String
        var host: String
        var id: String { self.document["id"] as? String ?? "" }
        var token: String { self.document["token"] as? String ?? "" }
    }

    static var python: String { ProcessInfo.processInfo.environment["APNS_EMULATOR_PYTHON"] ?? "python3" }

    /// Runs web_push_client.py with the emulator's CA; its last line as JSON.
    static func client(_ emulator: RunningEmulator, _ arguments: [String]) async throws -> [String: Any] {
        let run = try await Subprocess.run(
            "/usr/bin/env",
            ["REQUESTS_CA_BUNDLE=\(emulator.caPath)", Self.python, Checkout.thirdParty("web_push_client.py")] + arguments)
        try #require(run.status == 0, "web_push_client.py failed: \(run.stderr)")
        let line = run.stdout.split(separator: "\n").last.map(String.init) ?? ""
        return try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(run.stdout)")
    }

    /// A device's app, and a web app on it subscribed with a new VAPID key.
    static func subscribe(
        _ emulator: RunningEmulator, kind: String = "homeScreen", origin: String = "https://app.example", host: String? = nil
    ) async throws -> WebApp {
        let probe = try await Subprocess.run(Self.python, ["-c", "import pywebpush, py_vapid"])
        try #require(probe.status == 0, "pywebpush is missing: python3 -m pip install pywebpush py-vapid (\(probe.stderr))")
        var hostToken = host
        if hostToken == nil {
            let created = try await emulator.adminObject(
                "/api/v1/devices", method: "POST", body: #"{"topic": "com.example.browser"}"#, status: 201)
            hostToken = created["token"] as? String
        }
        let token = try #require(hostToken)
        let key = emulator.directory.appending("vapid-\(UUID().uuidString).pem")
        let applicationServerKey = try #require(
            try await Self.client(emulator, ["keygen", key])["applicationServerKey"] as? String)
        let document = try await emulator.adminObject(
            "/api/v1/devices/\(token)/web-apps", method: "POST",
            body:
                #"{"origin": "\#(origin)", "kind": "\#(kind)", "permission": "granted", "applicationServerKey": "\#(applicationServerKey)"}"#,
            status: 201)
        let subscription = try #require(document["subscription"] as? [String: Any])
        let path = emulator.directory.appending("subscription-\(UUID().uuidString).json")
        try JSONSerialization.data(withJSONObject: subscription).write(to: URL(fileURLWithPath: path))
        return WebApp(document: document, key: key, subscription: path, host: token)
    }

    static func push(
        _ emulator: RunningEmulator, _ app: WebApp, _ data: String, subject: String = "mailto:ops@app.example",
        _ extra: [String] = []
    ) async throws -> [String: Any] {
        try await Self.client(emulator, ["push", app.key, app.subscription, data, subject] + extra)
    }

    static let declarative =
        #"{"web_push": 8030, "notification": {"title": "Order shipped", "body": "Arrives Friday", "navigate": "https://app.example/orders/7"}, "app_badge": 4}"#

    @Test("a declarative push from pywebpush reaches a Home Screen web app, decrypted and shown as Safari shows it")
    func declarativeToHomeScreen() async throws {
        try await withEmulator { emulator in
            let app = try await Self.subscribe(emulator)
            let endpoint = try #require((app.document["subscription"] as? [String: Any])?["endpoint"] as? String)
            #expect(endpoint.hasPrefix("https://127.0.0.1:\(emulator.webPushPort)/push/"))
            let keys = try #require((app.document["subscription"] as? [String: Any])?["keys"] as? [String: String])
            #expect(keys["p256dh"]?.count == 87 && keys["auth"]?.count == 22, "65- and 16-byte keys, base64url")

            let answer = try await Self.push(emulator, app, Self.declarative)
            #expect(answer["status"] as? Int == 201, "RFC 8030 §5: 201 Created")
            let uniqueID = try #require(answer["uniqueId"] as? String)
            #expect((answer["location"] as? String)?.hasSuffix("/message/\(uniqueID)") == true)
            // Issue 52: version 7, time-ordered, as every other id the emulator makes.
            #expect(Array(uniqueID)[14] == "7", "\(uniqueID)")
            let log = try await emulator.adminObject("/api/v1/notifications/\(uniqueID)/delivery-log")
            let steps = try #require(log["events"] as? [[String: Any]], "\(log)")
            #expect((steps.first?["detail"] as? String)?.hasPrefix("Web Push service (RFC 8030) over HTTP/1.1: ") == true, "\(steps)")
            #expect(steps.contains { ($0["detail"] as? String)?.contains("shown as a banner") == true }, "\(steps)")

            let entry = try await emulator.adminObject("/api/v1/notifications/\(uniqueID)")
            #expect(entry["source"] as? String == "webpush" && entry["topic"] as? String == "https://app.example")
            let presentation = try #require(entry["presentation"] as? [String: Any])
            #expect(presentation["shown"] as? Bool == true && presentation["title"] as? String == "Order shipped")
            #expect(presentation["body"] as? String == "Arrives Friday" && presentation["badge"] as? Int == 4)
            let webPush = try #require(presentation["webPush"] as? [String: Any])
            #expect(webPush["outcome"] as? String == "declarative")
            #expect(webPush["navigate"] as? String == "https://app.example/orders/7")
            #expect(webPush["vapidSubject"] as? String == "mailto:ops@app.example")
            #expect((webPush["message"] as? String)?.contains("\"web_push\": 8030") == true, "decrypted as sent")

            let delivered = try await emulator.adminObject("/api/v1/devices/\(app.token)/delivered")
            let items = try #require(delivered["items"] as? [[String: Any]])
            #expect(items.count == 1 && (items.first?["presentation"] as? [String: Any])?["title"] as? String == "Order shipped")
            let listed = try await emulator.admin("/api/v1/devices/\(app.host)/web-apps")
            #expect(listed.status == 200 && listed.text.contains(app.id))
        }
    }

    @Test("a Safari page's original web push goes to its service worker, which shows it through POST …/show")
    func serviceWorkerOnSafari() async throws {
        try await withEmulator { emulator in
            let app = try await Self.subscribe(emulator, kind: "safari", origin: "https://news.example")
            let answer = try await Self.push(emulator, app, #"{"headline": "Rates cut"}"#, subject: "https://news.example")
            #expect(answer["status"] as? Int == 201)
            let entry = try await emulator.adminObject("/api/v1/notifications/\(try #require(answer["uniqueId"] as? String))")
            let presentation = try #require(entry["presentation"] as? [String: Any])
            #expect(presentation["shown"] as? Bool == false && presentation["appNotified"] as? Bool == true)
            let webPush = try #require(presentation["webPush"] as? [String: Any])
            #expect(webPush["outcome"] as? String == "serviceWorker" && webPush["kind"] as? String == "safari")
            #expect(webPush["message"] as? String == #"{"headline": "Rates cut"}"#, "the service worker's event.data")

            let shown = try await emulator.adminObject(
                "/api/v1/devices/\(app.host)/web-apps/\(app.id)/show", method: "POST",
                body: #"{"title": "Rates cut", "body": "By a quarter point"}"#, status: 201)
            #expect((shown["presentation"] as? [String: Any])?["title"] as? String == "Rates cut")
            let after = try await emulator.adminObject("/api/v1/devices/\(app.host)/web-apps/\(app.id)")
            #expect(after["unshownPushes"] as? Int == 0 && (after["awaitingShow"] as? [Any])?.isEmpty == true)
        }
    }

    @Test("issue 52: an audience without the service's port (as libraries that build aud from scheme and host send) is taken with a warning and shown; any other is refused")
    func audienceWithoutPort() async throws {
        try await withEmulator { emulator in
            let app = try await Self.subscribe(emulator)
            // What Apple's endpoint has, https://web.push.apple.com, with no port: the library's own rule.
            let portless = try await Self.push(emulator, app, Self.declarative, subject: "mailto:ops@app.example", ["60", "-", "-", "3600", "https://127.0.0.1"])
            #expect(portless["status"] as? Int == 201, "\(portless)")
            #expect((portless["warning"] as? String)?.hasPrefix("vapid-audience-without-port: ") == true, "\(portless)")
            let uniqueID = try #require(portless["uniqueId"] as? String)
            let entry = try await emulator.adminObject("/api/v1/notifications/\(uniqueID)")
            #expect((entry["presentation"] as? [String: Any])?["shown"] as? Bool == true, "\(entry)")
            for audience in ["http://127.0.0.1", "https://127.0.0.2", "https://127.0.0.1:1"] {
                let refused = try await Self.push(emulator, app, "hi", subject: "mailto:ops@app.example", ["60", "-", "-", "3600", audience])
                #expect(refused["status"] as? Int == 403 && refused["reason"] as? String == "BadJwtToken", "\(audience): \(refused)")
            }
        }
    }

    // Apple's page lists the JWT rules; the forum and server libraries' threads name the rest.
    @Test("each BadJwtToken cause, from pywebpush, answers 403 with the rule that failed")
    func badJwtTokens() async throws {
        try await withEmulator { emulator in
            let app = try await Self.subscribe(emulator)
            let origin = "https://127.0.0.1:\(emulator.webPushPort)"
            let cases: [(String, [String], String)] = [
                // Apple Developer Forums 725473: "mailto: <address>" with a space and angle brackets.
                ("mailto: <ops@app.example>", [], "space or angle brackets"),
                // web-push-libs/web-push 947 and 787: a localhost contact.
                ("mailto:ops@localhost", [], "localhost"),
                ("https://localhost", [], "localhost"),
                // Apple: "the JWT expiration parameter is more than one day into the future".
                ("mailto:ops@app.example", ["60", "-", "-", "90000"], "more than one day"),
                // Apple: "the JWT audience claim isn't the origin of the push service".
                ("mailto:ops@app.example", ["60", "-", "-", "3600", "https://web.push.apple.com"], origin),
            ]
            for (subject, extra, rule) in cases {
                let answer = try await Self.push(emulator, app, "hi", subject: subject, extra)
                #expect(answer["status"] as? Int == 403 && answer["reason"] as? String == "BadJwtToken", "\(subject) \(extra)")
                #expect((answer["detail"] as? String)?.contains(rule) == true, "\(answer)")
            }
            // Apple: "the JWT is signed with the wrong private key": another app server's key.
            let other = try await Self.subscribe(emulator, host: app.host)
            var stolen = app
            stolen.key = other.key
            let wrongKey = try await Self.push(emulator, stolen, "hi")
            #expect(wrongKey["status"] as? Int == 403 && wrongKey["reason"] as? String == "BadJwtToken")
            #expect((wrongKey["detail"] as? String)?.contains("applicationServerKey") == true, "\(wrongKey)")
            let rejected = try await emulator.journal("interface=webpush&status=rejected")
            #expect(rejected.count == 6 && rejected.allSatisfy { $0["reason"] as? String == "BadJwtToken" })
        }
    }

    @Test("an unsubscribed endpoint answers 410, an unknown one 404, a body over 4096 bytes 413; HTTP/2 like HTTP/1.1")
    func refusalsAndHTTP2() async throws {
        try await withEmulator { emulator in
            let app = try await Self.subscribe(emulator)
            let big = try await Self.push(emulator, app, String(repeating: "x", count: 4100))
            #expect(big["status"] as? Int == 413 && big["reason"] as? String == "PayloadTooLarge")

            let h2 = try await Self.client(
                emulator, ["h2push", app.key, app.subscription, Self.declarative, "mailto:ops@app.example", "30", "high"])
            #expect(h2["status"] as? Int == 201 && h2["http"] as? String == "HTTP/2")
            // Issue 52: the delivery log names the protocol the push came over.
            let h2Log = try await emulator.adminObject("/api/v1/notifications/\(try #require(h2["uniqueId"] as? String))/delivery-log")
            let h2Received = (h2Log["events"] as? [[String: Any]])?.first?["detail"] as? String
            #expect(h2Received?.hasPrefix("Web Push service (RFC 8030) over HTTP/2: ") == true, "\(h2Log)")
            let badUrgency = try await Self.client(
                emulator, ["h2push", app.key, app.subscription, "x", "mailto:ops@app.example", "30", "urgent"])
            #expect(badUrgency["status"] as? Int == 400 && badUrgency["reason"] as? String == "BadPriority")

            _ = try await emulator.adminObject("/api/v1/devices/\(app.host)/web-apps/\(app.id)/unsubscribe", method: "POST")
            let gone = try await Self.push(emulator, app, "hi")
            #expect(gone["status"] as? Int == 410 && gone["reason"] as? String == "Unregistered")

            var unknown = app
            unknown.subscription = emulator.directory.appending("unknown.json")
            let endpoint = "https://127.0.0.1:\(emulator.webPushPort)/push/nobody"
            let keys = try #require((app.document["subscription"] as? [String: Any])?["keys"])
            try JSONSerialization.data(withJSONObject: ["endpoint": endpoint, "keys": keys]).write(
                to: URL(fileURLWithPath: unknown.subscription))
            let missing = try await Self.push(emulator, unknown, "hi")
            #expect(missing["status"] as? Int == 404)
        }
    }

    @Test("issue 52: a web app no device holds takes each push at acceptance: delivered (TTL 0 too), never expired after; Urgency low is priority 5; TTL is the expiration")
    func topicUrgencyTTL() async throws {
        try await withEmulator { emulator in
            let app = try await Self.subscribe(emulator)
            let first = try await Self.push(emulator, app, "score 1-0", ["600", "low", "score"])
            let second = try await Self.push(emulator, app, "score 2-0", ["600", "low", "score"])
            #expect(first["status"] as? Int == 201 && second["status"] as? Int == 201)
            #expect(try await emulator.queued(app.token).isEmpty, "shown at acceptance, nothing waits")
            // TTL 0 (a library's default): deliver now or never, and the phone is here.
            let now = try await Self.push(emulator, app, Self.declarative, ["0"])
            let shortLived = try await Self.push(emulator, app, Self.declarative, ["3"])
            for answer in [second, now, shortLived] {
                let entry = try await emulator.adminObject("/api/v1/notifications/\(try #require(answer["uniqueId"] as? String))")
                #expect(entry["status"] as? String == "delivered", "\(entry)")
                #expect((entry["phoneOutcome"] as? [String: Any])?["state"] as? String != "waiting", "\(entry)")
            }
            #expect(
                ((try await emulator.adminObject("/api/v1/notifications/\(try #require(now["uniqueId"] as? String))"))["presentation"]
                    as? [String: Any])?["shown"] as? Bool == true)
            // Expiry never touches what was delivered.
            _ = try await emulator.adminObject("/api/v1/clock", method: "POST", body: #"{"advance": "1m"}"#)
            let later = try await emulator.adminObject("/api/v1/notifications/\(try #require(shortLived["uniqueId"] as? String))")
            #expect(later["status"] as? String == "delivered", "\(later)")
            let entry = try await emulator.adminObject("/api/v1/notifications/\(try #require(second["uniqueId"] as? String))")
            #expect(entry["priority"] as? Int == 5 && entry["collapseId"] as? String == "score")
            let received = try #require(entry["receivedAt"] as? String)
            let expiration = try #require(entry["expiration"] as? Int)
            let seconds = try #require(ISO8601DateFormatter.withFractions.date(from: received)).timeIntervalSince1970
            #expect(abs(Double(expiration) - seconds - 600) <= 1, "TTL 600 → expiration 600 s after receipt")
        }
    }

    @Test("a push encrypted for other keys is accepted by the service and journaled as undecryptable on the phone")
    func undecryptable() async throws {
        try await withEmulator { emulator in
            let app = try await Self.subscribe(emulator)
            let other = try await Self.subscribe(emulator, host: app.host)
            // This endpoint, signed with its own VAPID key, but encrypted to the other web app's keys.
            let mixed = emulator.directory.appending("mixed.json")
            let endpoint = try #require((app.document["subscription"] as? [String: Any])?["endpoint"])
            let keys = try #require((other.document["subscription"] as? [String: Any])?["keys"])
            try JSONSerialization.data(withJSONObject: ["endpoint": endpoint, "keys": keys]).write(
                to: URL(fileURLWithPath: mixed))
            var crossed = app
            crossed.subscription = mixed
            let answer = try await Self.push(emulator, crossed, Self.declarative)
            #expect(answer["status"] as? Int == 201, "the push service cannot read the body; only the browser can")
            let entry = try await emulator.adminObject("/api/v1/notifications/\(try #require(answer["uniqueId"] as? String))")
            let presentation = try #require(entry["presentation"] as? [String: Any])
            #expect(presentation["shown"] as? Bool == false)
            #expect((presentation["webPush"] as? [String: Any])?["outcome"] as? String == "undecryptable", "\(presentation)")
        }
    }
}

extension ISO8601DateFormatter {
    fileprivate static var withFractions: ISO8601DateFormatter {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter
    }
}

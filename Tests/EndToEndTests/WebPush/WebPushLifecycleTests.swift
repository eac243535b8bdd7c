import APNsServer
import APNsTestSupport
import Foundation
import Testing

/// Web Push over time: a subscription across a restart and an export, ended by silent pushes,
/// fault rules, metrics and the delivery log, and permission revoked in Settings. The helpers are ``WebPushTests``'.
/// Sources: Apple, "Sending web push notifications in web apps and browsers"; RFC 8030, 8291, 8292.
@Suite("Web Push: restarts, exports, faults and permission")
struct WebPushLifecycleTests {
    typealias WebApp = WebPushTests.WebApp
    static var declarative: String { WebPushTests.declarative }
    static func subscribe(
        _ emulator: RunningEmulator, kind: String = "homeScreen", origin: String = "https://app.example", host: String? = nil
    ) async throws -> WebApp {
        try await WebPushTests.subscribe(emulator, kind: kind, origin: origin, host: host)
    }
    static func push(
        _ emulator: RunningEmulator, _ app: WebApp, _ data: String, subject: String = "mailto:ops@app.example",
        _ extra: [String] = []
    ) async throws -> [String: Any] {
        try await WebPushTests.push(emulator, app, data, subject: subject, extra)
    }
    static func client(_ emulator: RunningEmulator, _ arguments: [String]) async throws -> [String: Any] {
        try await WebPushTests.client(emulator, arguments)
    }

    @Test(
        "a subscription outlives a restart: the endpoint an application server saved still reaches the service, whose port is fixed (--web-push-port, 2199 by default)"
    )
    func survivesRestart() async throws {
        // Apple's endpoints do not move (issue 69): the port the endpoint names is the service's
        // fixed one. A free port of the test's own stands for the default 2199, which another
        // emulator on this machine may hold.
        let port = try LoopbackPorts.free()
        let directory = try TemporaryDirectory()
        var emulator = try await RunningEmulator.start(directory: directory) { $0.webPushPort = port }
        let app: WebApp
        do {
            app = try await Self.subscribe(emulator)
            let endpoint = (app.document["subscription"] as? [String: Any])?["endpoint"] as? String
            #expect(endpoint?.hasPrefix("https://127.0.0.1:\(port)/push/") == true, "\(endpoint ?? "no endpoint")")
            #expect(try await Self.push(emulator, app, "before")["status"] as? Int == 201)
            try await emulator.stop()
        } catch {
            try? await emulator.stop()
            throw error
        }
        emulator = try await RunningEmulator.start(directory: directory) { $0.webPushPort = port }
        do {
            // The subscription exactly as it was saved before the restart.
            let answer = try await Self.push(emulator, app, Self.declarative)
            #expect(answer["status"] as? Int == 201)
            let entry = try await emulator.adminObject("/api/v1/notifications/\(try #require(answer["uniqueId"] as? String))")
            #expect(
                ((entry["presentation"] as? [String: Any])?["webPush"] as? [String: Any])?["outcome"] as? String == "declarative")
            try await emulator.stop()
        } catch {
            try? await emulator.stop()
            throw error
        }
    }

    @Test("an export carries the web apps' subscriptions: a world seeded from it opens pushes to the same endpoint id")
    func exportAndSeed() async throws {
        let outer = try TemporaryDirectory()
        let file = outer.appending("world.json")
        var first: WebApp?
        try await withEmulator { emulator in
            let app = try await Self.subscribe(emulator)
            _ = try await emulator.adminObject(
                "/api/v1/devices/\(app.host)/web-apps/\(app.id)/permission", method: "PUT", body: #"{"permission": "granted"}"#)
            let exported = try await emulator.admin("/api/v1/export", method: "POST", body: "")
            #expect(exported.status == 200 && exported.text.contains(#""privateKey""#))
            try Data(exported.body).write(to: URL(fileURLWithPath: file))
            // The application server's key outlives the first emulator's directory.
            var kept = app
            kept.key = outer.appending("vapid.pem")
            try FileManager.default.copyItem(atPath: app.key, toPath: kept.key)
            first = kept
        }
        let app = try #require(first)
        let seeded = try await RunningEmulator.start(seed: try SeedDocument.read(file))
        do {
            let listed = try await seeded.adminObject("/api/v1/devices/\(app.host)/web-apps/\(app.id)")
            #expect(listed["origin"] as? String == "https://app.example" && listed["subscribed"] as? Bool == true)
            var moved = app
            moved.subscription = seeded.directory.appending("moved.json")
            let endpoint = try #require((listed["subscription"] as? [String: Any])?["endpoint"] as? String)
            #expect(endpoint == "https://127.0.0.1:\(seeded.webPushPort)/push/\(app.id)")
            let keys = try #require((app.document["subscription"] as? [String: Any])?["keys"])
            try JSONSerialization.data(withJSONObject: ["endpoint": endpoint, "keys": keys]).write(
                to: URL(fileURLWithPath: moved.subscription))
            let answer = try await Self.push(seeded, moved, Self.declarative)
            #expect(answer["status"] as? Int == 201)
            let entry = try await seeded.adminObject("/api/v1/notifications/\(try #require(answer["uniqueId"] as? String))")
            #expect(
                ((entry["presentation"] as? [String: Any])?["webPush"] as? [String: Any])?["outcome"] as? String == "declarative")
            try await seeded.stop()
        } catch {
            try? await seeded.stop()
            throw error
        }
    }

    // Apple's APNs page: 429 when too many requests go to one device token; the emulator makes it
    // with a fault rule, as for the provider API.
    @Test(
        "fault rules match interface webpush (429 TooManyRequests, then a delay); metrics and the delivery log count web pushes")
    func faultsMetricsDeliveryLog() async throws {
        try await withEmulator { emulator in
            let app = try await Self.subscribe(emulator)
            _ = try await emulator.adminObject(
                "/api/v1/faults", method: "POST",
                body:
                    #"{"match": {"interface": "webpush", "token": "\#(app.token)"}, "action": {"type": "respond", "reason": "TooManyRequests", "status": 429}, "times": 1}"#,
                status: 201)
            let limited = try await Self.push(emulator, app, "hi")
            #expect(limited["status"] as? Int == 429 && limited["reason"] as? String == "TooManyRequests", "\(limited)")
            #expect((limited["detail"] as? String)?.contains("fault rule") == true)
            // An HTTP/2 rule leaves the web push door alone.
            _ = try await emulator.adminObject(
                "/api/v1/faults", method: "POST",
                body:
                    #"{"match": {"interface": "http2"}, "action": {"type": "respond", "reason": "InternalServerError", "status": 500}}"#,
                status: 201)
            let accepted = try await Self.push(emulator, app, Self.declarative)
            #expect(accepted["status"] as? Int == 201, "\(accepted)")
            let uniqueID = try #require(accepted["uniqueId"] as? String)
            #expect(try await DeliveryLogTests.events(emulator, uniqueID).first == "Received by APNs")

            let metrics = try await emulator.admin("/metrics").text
            #expect(
                metrics.contains(#"apns_notifications_accepted_total{interface="webpush"} 1"#), "accepted, counted by interface")
            #expect(
                metrics.split(separator: "\n").contains {
                    $0.hasPrefix("apns_notifications_rejected_total") && $0.contains(#"interface="webpush""#)
                        && $0.contains(#"status="429""#)
                })
            let journal = try await emulator.journal("interface=webpush")
            #expect(journal.count == 2 && journal.contains { $0["fault"] != nil && !($0["fault"] is NSNull) })
        }
    }

    // The admin API's fault table: a reset closes the connection with nothing answered, and the
    // request is journaled as unanswered (every door's pushes go through the same fault step).
    @Test("a reset fault on interface webpush closes the connection unanswered and journals the push with its fault")
    func resetFault() async throws {
        try await withEmulator { emulator in
            let app = try await Self.subscribe(emulator)
            let rule = try await emulator.adminObject(
                "/api/v1/faults", method: "POST",
                body: #"{"match": {"interface": "webpush", "token": "\#(app.token)"}, "action": {"type": "reset"}, "times": 1}"#,
                status: 201)
            let endpoint = try #require((app.document["subscription"] as? [String: Any])?["endpoint"] as? String)
            let curl = try await Subprocess.run(
                "curl",
                ["-s", "-o", "/dev/null", "-w", "%{http_code}", "--cacert", emulator.caPath, "-X", "POST", "-d", "x", endpoint])
            #expect(curl.status != 0 && curl.stdout == "000", "no answer: curl \(curl.status), \(curl.stdout)")
            let journal = try await emulator.journal("interface=webpush")
            #expect(journal.count == 1, "\(journal)")
            let item = try #require(journal.first)
            #expect((item["fault"] as? [String: Any])?["id"] as? String == rule["id"] as? String, "\(item)")
            #expect((item["detail"] as? String)?.contains("closed the connection") == true, "\(item)")
        }
    }

    // Apple Developer Forums 719990: blocking notifications in Settings leaves the endpoint valid.
    @Test("with permission revoked a push is still accepted, and nothing is shown")
    func permissionRevoked() async throws {
        try await withEmulator { emulator in
            let app = try await Self.subscribe(emulator)
            let changed = try await emulator.adminObject(
                "/api/v1/devices/\(app.host)/web-apps/\(app.id)/permission", method: "PUT", body: #"{"permission": "denied"}"#)
            #expect(changed["permission"] as? String == "denied")
            let answer = try await Self.push(emulator, app, Self.declarative)
            #expect(answer["status"] as? Int == 201)
            let entry = try await emulator.adminObject("/api/v1/notifications/\(try #require(answer["uniqueId"] as? String))")
            let presentation = try #require(entry["presentation"] as? [String: Any])
            #expect(presentation["shown"] as? Bool == false)
            #expect((presentation["webPush"] as? [String: Any])?["outcome"] as? String == "notAllowed")
            let refused = try await emulator.admin(
                "/api/v1/devices/\(app.host)/web-apps/\(app.id)/show", method: "POST", body: #"{"title": "x"}"#)
            #expect(refused.status == 409)
        }
    }

    // WebKit: original Web Push has "a penalty for service workers failing to display a
    // notification"; developers see the subscription end after three (dev.to, "How to fix iOS
    // push subscriptions being terminated after 3 notifications").
    @Test("three pushes in a row with no notification shown end the subscription: the fourth answers 410")
    func silentPushPenalty() async throws {
        try await withEmulator { emulator in
            let app = try await Self.subscribe(emulator)
            // A shown one in between resets the count.
            _ = try await Self.push(emulator, app, "one")
            _ = try await Self.push(emulator, app, "two")
            _ = try await emulator.adminObject(
                "/api/v1/devices/\(app.host)/web-apps/\(app.id)/show", method: "POST", body: #"{"title": "Two"}"#, status: 201)
            for text in ["three", "four", "five"] {
                #expect(try await Self.push(emulator, app, text)["status"] as? Int == 201)
            }
            let ended = try await emulator.adminObject("/api/v1/devices/\(app.host)/web-apps/\(app.id)")
            #expect(ended["subscribed"] as? Bool == false)
            #expect((ended["unsubscribedBecause"] as? String)?.contains("3 pushes in a row") == true, "\(ended)")
            let gone = try await Self.push(emulator, app, "six")
            #expect(gone["status"] as? Int == 410 && gone["reason"] as? String == "Unregistered")
        }
    }
}

import APNsCore
import APNsDeviceClient
import APNsTestSupport
import Foundation
import Testing

/// What the phone issues belongs to the environment of the app build that holds it: the tokens
/// ActivityKit gives a production build's app are production tokens, its local notifications are
/// its own, and the admin API's push goes to the endpoint it names.
///
/// Sources: Apple, "Starting and updating Live Activities with ActivityKit push notifications"
/// (the push-to-start and update tokens are sent "to the APNs server for the environment" the
/// app runs in, development or production); "Handling notification responses from APNs" (400
/// BadDeviceToken: "Verify … that the token matches the environment").
@Suite("Both environments: the phone's own tokens")
struct EnvironmentPhoneTests {
    static let bundle = LiveActivityTests.bundle

    static func client(_ emulator: RunningEmulator, port: Int) async throws -> HTTP2TestClient {
        try await HTTP2TestClient.connect(host: "127.0.0.1", port: port, caPath: emulator.caPath)
    }

    static func environment(of token: String, _ emulator: RunningEmulator) async throws -> String? {
        try await emulator.adminObject("/api/v1/tokens/\(token)")["environment"] as? String
    }

    @Test(
        "a production build's push-to-start and update tokens are production tokens: taken at production, 400 BadDeviceToken at the sandbox"
    )
    func activityTokensOfAProductionBuild() async throws {
        try await withEmulator { emulator in
            let device = try await emulator.device()
            let appToken = try await device.register(topic: Self.bundle, environment: .production)
            let app = try await device.declareActivityTypes(topic: Self.bundle, document: Array(LiveActivityTests.types.utf8))
            let pushToStart = try #require(app.pushToStartToken)
            #expect(try await Self.environment(of: appToken.hex, emulator) == "production")
            #expect(try await Self.environment(of: pushToStart, emulator) == "production")

            let sandbox = try await Self.client(emulator, port: emulator.http2Port)
            let live = try await Self.client(emulator, port: emulator.productionHTTP2Port)
            let refused = try await LiveActivityTests.send(sandbox, pushToStart, LiveActivityTests.start())
            #expect(refused.status == 400 && refused.reason == "BadDeviceToken", "\(refused.status) \(refused.reason ?? "")")
            #expect(try await LiveActivityTests.send(live, pushToStart, LiveActivityTests.start()).status == 200)
            let started = try await device.nextEvent {
                if case .activity(_, "started", _, _) = $0 { return true } else { return false }
            }
            guard case .activity(_, _, _, let activity) = started else { return }
            let update = try #require(activity.updateToken)
            #expect(try await Self.environment(of: update, emulator) == "production")
            let now = LiveActivityTests.now
            #expect(
                try await LiveActivityTests.send(live, update, LiveActivityTests.update(now + 10, "on the way")).status == 200)
            let wrong = try await LiveActivityTests.send(sandbox, update, LiveActivityTests.update(now + 20, "late"))
            #expect(wrong.status == 400 && wrong.reason == "BadDeviceToken")

            // The app started by the app itself: its update token is production's too.
            let request =
                #"{"attributes-type": "Delivery", "attributes": {"order": 2}, "content-state": {"status": "new"}, "pushType": "token"}"#
            let own = try await device.startActivity(topic: Self.bundle, document: Array(request.utf8))
            #expect(try await Self.environment(of: try #require(own.updateToken), emulator) == "production")
            try await device.close()
        }
    }

    @Test(
        "an app no device holds gets its Live Activity tokens in its own token's environment; a development build's stay development"
    )
    func activityTokensWithoutADevice() async throws {
        try await withEmulator { emulator in
            for environment in ["production", "development"] {
                let created = try await emulator.adminObject(
                    "/api/v1/devices", method: "POST", body: #"{"topic": "\#(Self.bundle)", "environment": "\#(environment)"}"#,
                    status: 201)
                let token = try #require(created["token"] as? String)
                let app = try await emulator.adminObject(
                    "/api/v1/devices/\(token)/app", method: "PUT", body: #"{"activityTypes": \#(LiveActivityTests.types)}"#)
                let pushToStart = try #require(app["pushToStartToken"] as? String)
                #expect(try await Self.environment(of: pushToStart, emulator) == environment)
            }
        }
    }

    @Test("a local notification of a production build's app fires; serve --environment production takes Web Push")
    func localAndWebPush() async throws {
        try await withEmulator { emulator in
            let token = try await EnvironmentTests.register(emulator, environment: "production")
            _ = try await emulator.adminObject(
                "/api/v1/devices/\(token)/app", method: "PUT",
                body: #"{"authorization": {"status": "authorized", "alert": true}, "timeZone": "UTC"}"#)
            _ = try await emulator.adminObject(
                "/api/v1/devices/\(token)/pending", method: "POST",
                body:
                    #"{"identifier": "standup", "content": {"title": "Stand up", "body": "now"}, "trigger": {"type": "timeInterval", "seconds": 60, "repeats": false}}"#,
                status: 201)
            _ = try await emulator.adminObject("/api/v1/clock", method: "POST", body: #"{"advance": "2m"}"#)
            let fired = try await emulator.journal("interface=local")
            #expect(fired.count == 1, "\(fired)")
            #expect(fired.first?["status"] as? String != "rejected" && fired.first?["environment"] as? String == "production")
            #expect((fired.first?["presentation"] as? [String: Any])?["title"] as? String == "Stand up")
        }
        try await withEmulator(configure: { $0.environment = .production }) { emulator in
            let app = try await WebPushTests.subscribe(emulator)
            let answer = try await WebPushTests.push(emulator, app, WebPushTests.declarative)
            #expect(answer["status"] as? Int == 201, "\(answer)")
        }
    }

    @Test("the admin API's push goes to the endpoint its environment names; a word it does not know is 400 naming the field")
    func adminPush() async throws {
        try await withEmulator { emulator in
            let token = try await EnvironmentTests.register(emulator, environment: "production")
            let body = { (environment: String?) in
                let named = environment.map { #", "environment": "\#($0)""# } ?? ""
                return #"{"token": "\#(token)", "topic": "com.example.app"\#(named), "payload": {"aps": {"alert": "Hi"}}}"#
            }
            let atSandbox = try await emulator.adminObject("/api/v1/push", method: "POST", body: body(nil))
            #expect(atSandbox["status"] as? Int == 400 && atSandbox["reason"] as? String == "BadDeviceToken", "\(atSandbox)")
            #expect((atSandbox["detail"] as? String)?.contains("issued to a production build") == true, "\(atSandbox)")
            let atProduction = try await emulator.adminObject("/api/v1/push", method: "POST", body: body("production"))
            #expect(atProduction["status"] as? Int == 200, "\(atProduction)")
            let unknown = try await emulator.admin("/api/v1/push", method: "POST", body: body("staging"))
            #expect(unknown.status == 400 && unknown.text.contains("environment"), "\(unknown.text)")
        }
    }
}

extension EnvironmentPhoneTests {
    @Test(
        "the journal says each push's endpoint, refusals too, and filters by it: environment= and environment: in q; a wrong word is 400"
    )
    func journalByEnvironment() async throws {
        try await withEmulator { emulator in
            let development = try await EnvironmentTests.register(emulator, environment: nil)
            let production = try await EnvironmentTests.register(emulator, environment: "production")
            let sandbox = try await Self.client(emulator, port: emulator.http2Port)
            let live = try await Self.client(emulator, port: emulator.productionHTTP2Port)
            #expect(try await sandbox.push(token: development, topic: EnvironmentTests.topic).status == 200)
            #expect(try await live.push(token: production, topic: EnvironmentTests.topic).status == 200)
            #expect(try await sandbox.push(token: production, topic: EnvironmentTests.topic).status == 400)

            let atProduction = try await emulator.journal("environment=production")
            #expect(atProduction.map { $0["token"] as? String } == [production], "\(atProduction)")
            let atSandbox = try await emulator.journal("q=environment:sandbox")
            #expect(
                atSandbox.count == 2 && atSandbox.allSatisfy { $0["environment"] as? String == "development" }, "\(atSandbox)")
            // The refusal says where it was sent: the sandbox, with the production build's token.
            let refused = try #require(atSandbox.first { $0["status"] as? String == "rejected" })
            #expect(refused["token"] as? String == production && refused["reason"] as? String == "BadDeviceToken")
            let excluded = try await emulator.journal("q=-environment:production")
            #expect(excluded.count == 2)
            // Prometheus counts each endpoint's pushes, and the tokens sent to the other environment's.
            let metrics = try await emulator.admin("/metrics").text
            for series in [
                #"apns_notifications_by_environment_total{environment="production",result="accepted"} 1"#,
                #"apns_notifications_by_environment_total{environment="development",result="accepted"} 1"#,
                #"apns_notifications_by_environment_total{environment="development",result="rejected"} 1"#,
                #"apns_notifications_other_environment_total{environment="development"} 1"#,
                #"apns_notifications_other_environment_total{environment="production"} 0"#,
            ] {
                #expect(
                    metrics.contains(series),
                    "\(series) in\n\(metrics.split(separator: "\n").filter { $0.contains("environment") })")
            }
            // The delivery log's first step names the endpoint.
            let uniqueID = try #require(atProduction.first?["uniqueId"] as? String)
            let log = try await emulator.adminObject("/api/v1/notifications/\(uniqueID)/delivery-log")
            let first = ((log["events"] as? [[String: Any]])?.first?["detail"] as? String) ?? ""
            #expect(first.hasPrefix("HTTP/2 provider API, production endpoint (api.push.apple.com): push type alert"), "\(log)")
            let wrong = try await emulator.admin("/api/v1/notifications?environment=staging")
            #expect(wrong.status == 400 && wrong.text.contains("environment"), "\(wrong.text)")
            let wrongInQ = try await emulator.admin("/api/v1/notifications?q=environment:staging")
            #expect(wrongInQ.status == 400 && wrongInQ.text.contains("environment:"), "\(wrongInQ.text)")
        }
    }
}

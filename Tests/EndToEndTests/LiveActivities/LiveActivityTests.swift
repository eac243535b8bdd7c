import APNsCore
import APNsServer
import APNsStore
import APNsTestSupport
import Foundation
import Logging
import Testing

/// Live Activities over real sockets: a provider pushes `liveactivity` over HTTP/2 with TLS to
/// the tokens ActivityKit hands out; the admin API reads what the phone made of each push.
@Suite("Live Activities, end to end")
struct LiveActivityTests {
    static let bundle = "com.example.delivery"
    static let topic = bundle + ".push-type.liveactivity"
    static let types = #"{"Delivery": {"attributes": {"order": "int"}, "contentState": {"status": "string", "eta": "date?"}}}"#

    /// An app with a declared activity type; its device token and its push-to-start token.
    static func app(_ emulator: RunningEmulator, extra: String = "") async throws -> (token: String, pushToStart: String) {
        let created = try await emulator.adminObject(
            "/api/v1/devices", method: "POST", body: #"{"topic": "\#(bundle)"}"#, status: 201)
        let token = try #require(created["token"] as? String)
        let app = try await emulator.adminObject(
            "/api/v1/devices/\(token)/app", method: "PUT", body: #"{"activityTypes": \#(types)\#(extra)}"#)
        return (token, try #require(app["pushToStartToken"] as? String))
    }

    static var now: Int { Int(Date().timeIntervalSince1970) }

    static func start(
        _ extra: String = #", "input-push-token": 1"#, alert: String = #""alert": {"title": "Order 7", "body": "Packing"}"#
    ) -> String {
        #"{"aps": {"event": "start", "timestamp": \#(now), "attributes-type": "Delivery", "attributes": {"order": 7}, "content-state": {"status": "packing"}, \#(alert)\#(extra)}}"#
    }

    static func update(_ timestamp: Int, _ status: String, event: String = "update", extra: String = "") -> String {
        #"{"aps": {"event": "\#(event)", "timestamp": \#(timestamp), "content-state": {"status": "\#(status)"}\#(extra)}}"#
    }

    static func send(
        _ provider: HTTP2TestClient, _ token: String, _ json: String, priority: Int = 10, topic: String = topic
    ) async throws -> HTTP2TestClient.Response {
        try await provider.push(
            token: token,
            headers: [("apns-topic", topic), ("apns-push-type", "liveactivity"), ("apns-priority", String(priority))], json: json)
    }

    /// The activity a push concerned, as the journal records it.
    static func outcome(_ emulator: RunningEmulator, _ response: HTTP2TestClient.Response) async throws -> [String: Any] {
        #expect(response.status == 200)
        let uniqueID = try #require(response.header("apns-unique-id"))
        // The phone applied the push before the 200 (read-your-writes, issue 37): the first read
        // after it shows the final outcome, never `queued`.
        let entry = try await emulator.adminObject("/api/v1/notifications/\(uniqueID)")
        #expect(entry["status"] as? String == "delivered", "iOS takes a Live Activity push whether or not the app runs")
        return try #require(entry["activity"] as? [String: Any])
    }

    @Test("read-your-writes: every admin read right after a Live Activity push's 200 shows it delivered and applied")
    func readYourWrites() async throws {
        try await withEmulator { emulator in
            let (_, pushToStart) = try await Self.app(emulator)
            let provider = try await emulator.http2Client()
            let started = try await Self.outcome(emulator, try await Self.send(provider, pushToStart, Self.start()))
            let id = try #require(started["id"] as? String)
            let updateToken = try #require(try await emulator.adminObject("/api/v1/activities/\(id)")["updateToken"] as? String)
            for step in 1...20 {
                let response = try await Self.send(
                    provider, updateToken, Self.update(Self.now + step, "step \(step)"), priority: 5)
                let uniqueID = try #require(response.header("apns-unique-id"))
                let entry = try await emulator.adminObject("/api/v1/notifications/\(uniqueID)")
                #expect(entry["status"] as? String == "delivered", "read \(step) right after the 200")
                let activity = try await emulator.adminObject("/api/v1/activities/\(id)")
                #expect(
                    activity["contentState"] as? [String: String] == ["status": "step \(step)"],
                    "read \(step) right after the 200")
            }
        }
    }

    static func activities(_ emulator: RunningEmulator, _ token: String) async throws -> [[String: Any]] {
        try #require(try await emulator.adminObject("/api/v1/devices/\(token)/activities")["items"] as? [[String: Any]])
    }

    // Apple, "Starting and updating Live Activities with ActivityKit push notifications": the
    // topic is <bundle>.push-type.liveactivity; a push-to-start carries attributes-type,
    // attributes, content-state and an alert; input-push-token (iOS 18) asks for an update token.
    @Test(
        "push-to-start with input-push-token: an active activity with an update token; updates in timestamp order; an older one ignored"
    )
    func pushToStartAndUpdates() async throws {
        try await withEmulator { emulator in
            let (token, pushToStart) = try await Self.app(emulator)
            let provider = try await emulator.http2Client()
            let started = try await Self.outcome(emulator, try await Self.send(provider, pushToStart, Self.start()))
            #expect(started["outcome"] as? String == "started" && started["event"] as? String == "start")
            let id = try #require(started["id"] as? String)
            // Its alert lit the screen: the journal item has a presentation, as a notification's.
            let lit = try #require(try await emulator.journal("token=\(pushToStart)").first?["presentation"] as? [String: Any])
            #expect(lit["shown"] as? Bool == true && lit["title"] as? String == "Order 7" && lit["body"] as? String == "Packing")
            let activity = try await emulator.adminObject("/api/v1/activities/\(id)")
            #expect(activity["activityState"] as? String == "active" && activity["type"] as? String == "Delivery")
            let updateToken = try #require(activity["updateToken"] as? String)

            // The bundle's own topic is not the token's (APNs: DeviceTokenNotForTopic).
            let wrongTopic = try await Self.send(provider, updateToken, Self.update(Self.now, "x"), topic: Self.bundle)
            #expect(wrongTopic.status == 400 && wrongTopic.reason == "DeviceTokenNotForTopic")

            // ActivityKit: an update older than the last applied one is ignored (forum thread 776165).
            // A date goes out as UNIX seconds and is read as seconds since 2001 (home-assistant/iOS #4677).
            // apns-expiration 0 (now or never) still reaches it: the phone is there to take it.
            let immediate = try await provider.push(
                token: updateToken,
                headers: [("apns-topic", Self.topic), ("apns-push-type", "liveactivity"), ("apns-expiration", "0")],
                json: Self.update(Self.now + 30, "on the way"))
            #expect(try await Self.outcome(emulator, immediate)["outcome"] as? String == "applied")
            let newer = try await Self.outcome(
                emulator,
                try await Self.send(
                    provider, updateToken,
                    #"{"aps": {"event": "update", "timestamp": \#(Self.now + 60), "content-state": {"status": "on the way", "eta": 1700000000}}}"#
                ))
            #expect(newer["outcome"] as? String == "applied")
            let older = try await Self.outcome(
                emulator, try await Self.send(provider, updateToken, Self.update(Self.now - 60, "packing")))
            #expect(older["outcome"] as? String == "ignored" && older["code"] as? String == "stale-timestamp")
            #expect((older["reason"] as? String)?.contains("older than the last applied") == true)
            let after = try await emulator.adminObject("/api/v1/activities/\(id)")
            #expect(after["contentState"] as? [String: String] == ["status": "on the way", "eta": "2054-11-14T22:13:20Z"])
            let history = try #require(after["history"] as? [[String: Any]])
            #expect(history.map { $0["outcome"] as? String } == ["started", "applied", "applied", "ignored"])
            #expect(try await Self.activities(emulator, token).map { $0["id"] as? String } == [id])
        }
    }

    // APNSwift #232: a start with an empty alert, "nothing arrives". flutter_live_activities
    // #118: APNs 200, the device cannot decode the content state.
    @Test(
        "a start without alert, or with a content state that does not decode, is not started: 200 from APNs, the reason in the journal and the metrics"
    )
    func notStarted() async throws {
        try await withEmulator { emulator in
            let (token, pushToStart) = try await Self.app(emulator)
            let provider = try await emulator.http2Client()
            let stream = try await AdminEventStream.open(host: "127.0.0.1", port: emulator.adminPort)
            let noAlert = try await Self.outcome(
                emulator,
                try await Self.send(provider, pushToStart, Self.start("", alert: #""alert": {"title": "", "body": ""}"#)))
            #expect(noAlert["outcome"] as? String == "not started" && noAlert["code"] as? String == "missing-alert")
            let badState = try await Self.outcome(
                emulator,
                try await Self.send(
                    provider, pushToStart, Self.start().replacingOccurrences(of: #""status": "packing""#, with: #""status": 3"#)))
            #expect(badState["code"] as? String == "content-state-decode")
            #expect((badState["reason"] as? String)?.contains("typeMismatch at aps.content-state.status") == true)
            #expect(try await Self.activities(emulator, token).isEmpty)
            let metrics = try await emulator.admin("/metrics").text
            #expect(metrics.contains(#"apns_live_activity_pushes_total{outcome="not started",reason="missing-alert"} 1"#))
            // The event stream says so too, with no activity to name.
            let told = try await stream.waitForEvents(2, kind: "activity").map(\.data)
            #expect(
                told.map { $0["change"] as? String } == ["ignored", "ignored"] && told.allSatisfy { $0["activityId"] is NSNull })
            #expect((told.first?["reason"] as? String)?.contains("alert with a title and a body") == true)
            try await stream.close()
        }
    }

    // ActivityUIDismissalPolicy: .after(date) leaves at the date (within 4 hours); "Displaying
    // live data with Live Activities": the system ends an activity after 8 hours.
    @Test("end with a dismissal date: dismissed when the clock passes it; another activity ends by itself after 8 h")
    func clock() async throws {
        try await withEmulator { emulator in
            let (token, pushToStart) = try await Self.app(emulator)
            let provider = try await emulator.http2Client()
            let first = try #require(
                try await Self.outcome(emulator, try await Self.send(provider, pushToStart, Self.start()))["id"] as? String)
            let second = try #require(
                try await Self.outcome(emulator, try await Self.send(provider, pushToStart, Self.start()))["id"] as? String)
            let updateToken = try #require(
                try await emulator.adminObject("/api/v1/activities/\(first)")["updateToken"] as? String)
            let end = Self.update(Self.now + 1, "delivered", event: "end", extra: #", "dismissal-date": \#(Self.now + 1800)"#)
            #expect(
                try await Self.outcome(emulator, try await Self.send(provider, updateToken, end))["outcome"] as? String
                    == "applied")
            #expect(try await emulator.adminObject("/api/v1/activities/\(first)")["activityState"] as? String == "ended")
            _ = try await emulator.adminObject("/api/v1/clock", method: "POST", body: #"{"advance": "31m"}"#)
            let ended = try await emulator.adminObject("/api/v1/activities/\(first)")
            #expect(
                ended["activityState"] as? String == "dismissed"
                    && ended["contentState"] as? [String: String] == ["status": "delivered"])
            #expect(try await emulator.adminObject("/api/v1/activities/\(second)")["activityState"] as? String == "active")
            _ = try await emulator.adminObject("/api/v1/clock", method: "POST", body: #"{"advance": "450m"}"#)
            #expect(try await emulator.adminObject("/api/v1/activities/\(second)")["activityState"] as? String == "ended")
            _ = try await emulator.adminObject("/api/v1/clock", method: "POST", body: #"{"advance": "4h"}"#)
            #expect(try await emulator.adminObject("/api/v1/activities/\(second)")["activityState"] as? String == "dismissed")
            let pushAfter = try await Self.outcome(
                emulator, try await Self.send(provider, updateToken, Self.update(Self.now + 50_000, "again")))
            #expect(pushAfter["code"] as? String == "activity-ended")
            #expect(try await Self.activities(emulator, token).count == 2)
        }
    }

    // Apple: priority 10 Live Activity updates draw from a budget, priority 5 ones do not.
    @Test("budget: priority 10 updates past the hourly budget are ignored as budget exceeded, priority 5 ones applied")
    func budget() async throws {
        try await withEmulator(configure: { $0.activityLimits.hourlyBudget = 3 }) { emulator in
            let (_, pushToStart) = try await Self.app(emulator)
            let provider = try await emulator.http2Client()
            let id = try #require(
                try await Self.outcome(emulator, try await Self.send(provider, pushToStart, Self.start()))["id"] as? String)
            let updateToken = try #require(try await emulator.adminObject("/api/v1/activities/\(id)")["updateToken"] as? String)
            let base = Self.now
            for n in 1...3 {
                #expect(
                    try await Self.outcome(emulator, try await Self.send(provider, updateToken, Self.update(base + n, "s\(n)")))[
                        "outcome"] as? String == "applied")
            }
            let throttled = try await Self.outcome(
                emulator, try await Self.send(provider, updateToken, Self.update(base + 4, "s4")))
            #expect(
                throttled["code"] as? String == "budget-exceeded"
                    && (throttled["reason"] as? String)?.contains("budget exceeded") == true)
            let quiet = try await Self.outcome(
                emulator, try await Self.send(provider, updateToken, Self.update(base + 5, "s5"), priority: 5))
            #expect(quiet["outcome"] as? String == "applied")
            #expect(
                try await emulator.adminObject("/api/v1/activities/\(id)")["contentState"] as? [String: String] == [
                    "status": "s5"
                ])
        }
    }

    @Test("in the app: Activity.request with pushType token, end with immediate dismissal; refusals say why")
    func inApp() async throws {
        try await withEmulator { emulator in
            let (token, _) = try await Self.app(emulator, extra: #", "liveActivitiesEnabled": true"#)
            let body =
                #"{"attributes-type": "Delivery", "attributes": {"order": 1}, "content-state": {"status": "new"}, "pushType": "token"}"#
            let created = try await emulator.adminObject(
                "/api/v1/devices/\(token)/activities", method: "POST", body: body, status: 201)
            let id = try #require(created["id"] as? String)
            #expect(created["updateToken"] is String && created["startedBy"] as? String == "app")
            let bad = try await emulator.admin(
                "/api/v1/devices/\(token)/activities", method: "POST",
                body: body.replacingOccurrences(of: #"{"order": 1}"#, with: "{}"))
            #expect(bad.status == 400 && bad.text.contains("keyNotFound"))
            let ended = try await emulator.adminObject(
                "/api/v1/activities/\(id)/end", method: "POST", body: #"{"dismissalPolicy": "immediate"}"#)
            #expect(ended["activityState"] as? String == "dismissed")
            #expect(try await emulator.admin("/api/v1/activities/\(id)/end", method: "POST", body: "{}").status == 409)
            _ = try await emulator.adminObject(
                "/api/v1/devices/\(token)/app", method: "PUT", body: #"{"liveActivitiesEnabled": false}"#)
            let denied = try await emulator.admin("/api/v1/devices/\(token)/activities", method: "POST", body: body)
            #expect(denied.status == 409 && denied.text.contains("denied"))
        }
    }

    // Forum thread 712499 (Apple): Live Activity pushes need token authentication; a certificate
    // connection was refused. jerryliurui/Live-Activities-Demo-NBA-Score #1 shows the reason a
    // certificate gets for the .push-type.liveactivity topic: TopicDisallowed.
    // Its explanation says what helps: token-based authentication, not a certificate with more topics (issue 41).
    @Test(
        "a certificate connection gets 400 TopicDisallowed for the liveactivity topic, explained as needing token authentication")
    func certificate() async throws {
        try await withEmulator(configure: { $0.auth = .strict }) { emulator in
            let client = try await emulator.http2Client(identity: try emulator.providerIdentity(uid: Self.bundle))
            let refused = try await Self.send(client, String(repeating: "ab", count: 32), Self.start())
            #expect(refused.status == 400 && refused.reason == "TopicDisallowed")
            let detail = refused.header("apns-emulator-detail") ?? ""
            #expect(detail.contains("need token-based authentication") && !detail.contains("does not cover"), "\(detail)")
            // Any other topic a certificate lacks keeps the usual explanation.
            let other = try await client.push(token: String(repeating: "ab", count: 32), topic: "com.example.notmine")
            #expect(other.reason == "TopicDisallowed" && other.header("apns-emulator-detail")?.contains("does not cover") == true)
        }
    }

    @Test(
        "the event stream tells each change: the push-to-start token, started, the update token, ignored with its reason, ended")
    func events() async throws {
        try await withEmulator { emulator in
            let stream = try await AdminEventStream.open(host: "127.0.0.1", port: emulator.adminPort)
            let (_, pushToStart) = try await Self.app(emulator)
            let provider = try await emulator.http2Client()
            let id = try #require(
                try await Self.outcome(emulator, try await Self.send(provider, pushToStart, Self.start()))["id"] as? String)
            let updateToken = try #require(try await emulator.adminObject("/api/v1/activities/\(id)")["updateToken"] as? String)
            _ = try await Self.send(provider, updateToken, Self.update(Self.now - 100, "old"))
            _ = try await Self.send(provider, updateToken, Self.update(Self.now + 10, "done", event: "end"))
            let activity = try await stream.waitForEvents(5, kind: "activity").map(\.data)
            #expect(activity.map { $0["change"] as? String } == ["token", "started", "token", "ignored", "ended"])
            #expect(activity.first?["token"] as? String == pushToStart && activity.first?["activityId"] is NSNull)
            #expect(activity[2]["token"] as? String == updateToken && activity[2]["activityId"] as? String == id)
            #expect(
                (activity[3]["reason"] as? String)?.contains("older than") == true
                    && activity[4]["activityState"] as? String == "ended")
            try await stream.close()
        }
    }

    // aioapns (PyPI) sends Live Activity pushes unchanged but for host, port and CA.
}

import APNsTestSupport
import Foundation
import Testing

/// A Live Activity push or broadcast shaped like an alert push (issue 41): APNs answers 200 and
/// ActivityKit ignores what it does not read, so the emulator answers 200 too and says, field by
/// field, what did nothing. Apple, "Starting and updating Live Activities with ActivityKit push
/// notifications"; Apple staff, developer forums thread 799195 (a Live Activity's alert is a
/// dictionary of title, body and sound); Apple, "Sending broadcast push notification requests to
/// APNs" (the headers a broadcast reads).
@Suite("Live Activity lint over the provider API")
struct LiveActivityLintTests {
    static func warnings(_ response: HTTP2TestClient.Response) -> [String] {
        response.headers.filter { $0.name == "apns-emulator-warning" }.map(\.value)
    }

    @Test("the common README shape: 200, a warning per ignored field, in the journal too; no title and no sound on the phone")
    func readmeShape() async throws {
        try await withEmulator { emulator in
            let (_, pushToStart) = try await LiveActivityTests.app(emulator)
            let provider = try await emulator.http2Client()
            let started = try await LiveActivityTests.outcome(
                emulator, try await LiveActivityTests.send(provider, pushToStart, LiveActivityTests.start()))
            let id = try #require(started["id"] as? String)
            let updateToken = try #require(try await emulator.adminObject("/api/v1/activities/\(id)")["updateToken"] as? String)
            let shaped = LiveActivityTests.update(
                LiveActivityTests.now + 5, "on the way", extra: #", "alert": "Out for delivery", "sound": "default", "badge": 1"#)
            let response = try await LiveActivityTests.send(provider, updateToken, shaped)
            #expect(try await LiveActivityTests.outcome(emulator, response)["outcome"] as? String == "applied")
            let warnings = Self.warnings(response).filter { $0.hasPrefix("liveactivity-ignored") }
            #expect(warnings.count == 3, "\(Self.warnings(response))")
            #expect(warnings.contains { $0.contains("aps.sound") } && warnings.contains { $0.contains("aps.badge") })
            #expect(warnings.contains { $0.contains("string alert") })
            let uniqueID = try #require(response.header("apns-unique-id"))
            let entry = try await emulator.adminObject("/api/v1/notifications/\(uniqueID)")
            #expect((entry["warnings"] as? [String])?.filter { $0.hasPrefix("liveactivity-ignored") }.count == 3)
            // The activity took the content and announced nothing: no alert, so no sound.
            let activity = try await emulator.adminObject("/api/v1/activities/\(id)")
            #expect(activity["contentState"] as? [String: String] == ["status": "on the way"])
            let history = try #require(activity["history"] as? [[String: Any]])
            #expect(history.last?["outcome"] as? String == "applied")
            // A string alert has no title and no sound: the screen lights with its text, silently.
            let presentation = try #require(entry["presentation"] as? [String: Any])
            #expect(presentation["sound"] is NSNull && presentation["title"] is NSNull, "\(presentation)")
        }
    }

    @Test("a broadcast with aps.sound, apns-topic and apns-collapse-id: 200, each named in a warning and the journal")
    func broadcast() async throws {
        try await withEmulator { emulator in
            let client = try await emulator.http2Client()
            let channel = try await BroadcastTests.channel(client)
            let response = try await BroadcastTests.publish(
                client, channel, LiveActivityTests.update(LiveActivityTests.now, "1-0", extra: #", "sound": "goal.caf""#),
                extra: [("apns-topic", BroadcastTests.bundle), ("apns-collapse-id", "score")])
            #expect(response.status == 200)
            let warnings = Self.warnings(response)
            #expect(warnings.contains { $0.hasPrefix("liveactivity-ignored") && $0.contains("aps.sound") }, "\(warnings)")
            #expect(warnings.contains { $0.hasPrefix("broadcast-header") && $0.contains("apns-topic") })
            #expect(warnings.contains { $0.hasPrefix("broadcast-header") && $0.contains("apns-collapse-id") })
            let journaled = try #require(
                try await emulator.journal("interface=broadcast").first { $0["operation"] as? String == "publish" })
            #expect((journaled["warnings"] as? [String])?.count == 3)
            let clean = try await BroadcastTests.publish(
                client, channel, LiveActivityTests.update(LiveActivityTests.now + 1, "2-0"))
            #expect(clean.status == 200 && Self.warnings(clean).isEmpty)
        }
    }
}

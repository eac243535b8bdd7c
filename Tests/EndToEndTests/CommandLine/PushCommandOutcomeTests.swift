import APNsTestSupport
import Foundation
import Testing

/// What `apns-emulator push` says beside APNs' answer (issue 50): the phone's outcome once it
/// settles, and what is wrong with a command line that gives no payload or two.
@Suite("apns-emulator push: what the phone did")
struct PushCommandOutcomeTests {
    static let topic = PushCommandTests.topic
    static let token = PushCommandTests.token

    func push(_ emulator: RunningEmulator, _ arguments: [String]) async throws -> Subprocess.Output {
        try await PushCommandTests().push(emulator, arguments)
    }

    @Test("issue 50: push prints what the phone did beside APNs' answer (shown; an activity not started for its missing alert)")
    func phoneOutcome() async throws {
        try await withEmulator { emulator in
            let token = String(repeating: "6f", count: 32)
            _ = try await emulator.adminObject("/api/v1/devices", method: "POST", body: #"{"topic": "\#(Self.topic)", "token": "\#(token)"}"#, status: 201)
            let app = try await emulator.adminObject(
                "/api/v1/devices/\(token)/app", method: "PUT",
                body: #"{"authorization": {"status": "authorized", "alert": true, "sound": true, "badge": true}, "activityTypes": {"Delivery": {"attributes": {"order": "int"}, "contentState": {"status": "string"}}}}"#)
            let admin = ["--admin-port", String(emulator.adminPort)]
            let shown = try await self.push(emulator, ["--token", token, "--topic", Self.topic] + admin + [#"{"aps":{"alert":"Hi"}}"#])
            #expect(shown.stdout.hasPrefix("200 OK · phone: shown as banner\n"), "\(shown.stdout)")
            // ActivityKit: a push-to-start without an alert starts nothing.
            let pushToStart = try #require(app["pushToStartToken"] as? String)
            let start = #"{"aps":{"event":"start","timestamp":\#(Int(Date().timeIntervalSince1970)),"attributes-type":"Delivery","attributes":{"order":1},"content-state":{"status":"new"}}}"#
            let refused = try await self.push(
                emulator,
                ["--token", pushToStart, "--topic", Self.topic + ".push-type.liveactivity", "--type", "liveactivity"] + admin + [start])
            #expect(refused.stdout.hasPrefix("200 OK · phone: activity not started (missing-alert)\n"), "\(refused.stdout)")
        }
    }

    @Test("without a payload, or with two, push says which and how to give one")
    func payloadMistakes() async throws {
        try await withEmulator { emulator in
            let none = try await self.push(emulator, ["--token", Self.token, "--topic", Self.topic])
            #expect(none.status != 0 && none.stderr.contains("no payload: give it as an argument"), "\(none.stderr)")
            let two = try await self.push(emulator, ["--token", Self.token, "--file", "x.json", "{}"])
            #expect(two.status != 0 && two.stderr.contains("two payloads"), "\(two.stderr)")
        }
    }
}

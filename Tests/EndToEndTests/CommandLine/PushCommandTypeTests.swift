import APNsTestSupport
import Foundation
import Testing

/// Issue 69: `apns-emulator push` sends `apns-push-type` as a careful provider does, so that the
/// README's own tour passes the report card. Apple, "Sending notification requests to APNs": the
/// header is recommended for every push and required on watchOS; a background push carries
/// content-available and nothing to show, at priority 5; an alert, a sound or a badge is an alert
/// push; a VoIP push's topic ends in `.voip`.
@Suite("apns-emulator push: the push type it sends")
struct PushCommandTypeTests {
    static let topic = "com.example.push"
    static let token = String(repeating: "6e", count: 32)

    /// Pushes `payload` with `arguments`; the journal's item for it.
    func pushed(_ emulator: RunningEmulator, _ payload: String, _ arguments: [String] = []) async throws -> [String: Any] {
        let run = try await Subprocess.run(
            Subprocess.emulatorExecutable,
            ["push", "--http2-port", String(emulator.http2Port), "--ca", emulator.caPath, "--token", Self.token]
                + (arguments.contains("--topic") ? [] : ["--topic", Self.topic]) + arguments + [payload])
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        let uniqueID = try #require(run.stdout.split(separator: "\n").first { $0.hasPrefix("apns-unique-id: ") }?.dropFirst(16))
        return try await emulator.adminObject("/api/v1/notifications/\(uniqueID)")
    }

    /// Each provider's verdict on `push-type-and-priority`.
    func pushTypeChecks(_ emulator: RunningEmulator) async throws -> [String] {
        let providers = try await emulator.adminObject("/api/v1/providers")["items"] as? [[String: Any]] ?? []
        var verdicts: [String] = []
        for provider in providers {
            guard let id = provider["id"] as? String else { continue }
            let report = try await emulator.adminObject("/api/v1/providers/\(id)/report")
            let checks = report["checks"] as? [[String: Any]] ?? []
            verdicts += checks.filter { $0["id"] as? String == "push-type-and-priority" }.compactMap { $0["verdict"] as? String }
        }
        return verdicts
    }

    @Test(
        "without --type: background at priority 5 for content-available alone, alert for a badge or an alert, voip by the topic; --type and --priority win"
    )
    func inferred() async throws {
        try await withEmulator { emulator in
            let background = try await self.pushed(emulator, #"{"aps":{"content-available":1}}"#)
            #expect(background["pushType"] as? String == "background" && background["priority"] as? Int == 5, "\(background)")
            let badge = try await self.pushed(emulator, #"{"aps":{"badge":5}}"#)
            #expect(badge["pushType"] as? String == "alert" && badge["priority"] as? Int == 10, "\(badge)")
            let alert = try await self.pushed(emulator, #"{"aps":{"alert":"Hi","content-available":1}}"#)
            #expect(alert["pushType"] as? String == "alert", "\(alert)")
            let voip = try await self.pushed(emulator, #"{"call":"1"}"#, ["--topic", Self.topic + ".voip"])
            #expect(voip["pushType"] as? String == "voip", "\(voip)")
            let told = try await self.pushed(
                emulator, #"{"aps":{"content-available":1}}"#, ["--type", "alert", "--priority", "10"])
            #expect(told["pushType"] as? String == "alert" && told["priority"] as? Int == 10, "\(told)")
            // The report card's check finds every request typed, and none background at priority 10.
            let passed = await eventually {
                (try? await self.pushTypeChecks(emulator)).map { !$0.isEmpty && $0.allSatisfy { $0 == "pass" } } == true
            }
            let verdicts = (try? await self.pushTypeChecks(emulator)) ?? []
            #expect(passed, "push-type-and-priority: \(verdicts)")
        }
    }
}

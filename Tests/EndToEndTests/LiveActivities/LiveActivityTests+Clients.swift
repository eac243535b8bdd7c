import APNsCore
import APNsServer
import APNsStore
import APNsTestSupport
import Foundation
import Logging
import Testing

/// Live Activities pushed by a client library from PyPI, as a provider runs it.
extension LiveActivityTests {
    @Test("aioapns with token authentication starts an activity by push-to-start and updates it")
    func aioapns() async throws {
        let python = ProcessInfo.processInfo.environment["APNS_EMULATOR_PYTHON"] ?? "python3"
        let probe = try await Subprocess.run(python, ["-c", "import aioapns"])
        try #require(probe.status == 0, "aioapns is missing: python3 -m pip install aioapns==4.0 (\(probe.stderr))")
        try await withEmulator(configure: { $0.auth = .strict }) { emulator in
            let key = try emulator.registerKey(keyID: "LIVE123456", teamID: "TEAM654321", topics: [Self.bundle])
            let p8 = emulator.directory.appending("AuthKey_LIVE123456.p8")
            try key.p8.write(toFile: p8, atomically: true, encoding: .utf8)
            let (token, pushToStart) = try await Self.app(emulator)
            let script = Checkout.thirdParty("live_activity_client.py")
            func run(_ arguments: [String]) async throws -> [String: Any] {
                let run = try await Subprocess.run(
                    python,
                    [script, "127.0.0.1", String(emulator.http2Port), emulator.caPath, p8, key.keyID, key.teamID, Self.bundle]
                        + arguments)
                try #require(run.status == 0, "live_activity_client.py failed: \(run.stderr)")
                let line = run.stdout.split(separator: "\n").last.map(String.init) ?? ""
                return try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(run.stdout)")
            }
            #expect(try await run(["start", pushToStart])["status"] as? String == "200")
            let activity = try #require(try await Self.activities(emulator, token).first)
            #expect(activity["activityState"] as? String == "active" && activity["attributes"] as? [String: Int] == ["order": 42])
            let updateToken = try #require(activity["updateToken"] as? String)
            #expect(try await run(["update", updateToken, String(Self.now + 5), "shipped"])["status"] as? String == "200")
            #expect(
                try await Self.activities(emulator, token).first?["contentState"] as? [String: String] == ["status": "shipped"])
        }
    }
}

import APNsCore
import APNsTestSupport
import Foundation
import Testing

/// apns3 (PyAPNs for Python 3, from PyPI), a legacy provider library that knows nothing of the
/// emulator, sends on the binary gateway, sees its error response and reads feedback.
@Suite("apns3 as a legacy provider")
struct LegacyClientTests {
    static let topic = "com.example.app"
    static let script = Checkout.thirdParty("legacy_client.py")
    static let python = ProcessInfo.processInfo.environment["APNS_EMULATOR_PYTHON"] ?? "python3"

    @Test("commands 0, 1 and 2 from apns3 are stored; it gets status 8 for an unknown token; feedback reads once")
    func apns3() async throws {
        let probe = try await Subprocess.run(Self.python, ["-c", "import apns3"])
        try #require(probe.status == 0, "apns3 is missing: python3 -m pip install apns3==1.0.0 (\(probe.stderr))")

        try await withEmulator(configure: { $0.storagePolicy = .all; $0.tokenPolicy = .registered }) { emulator in
            let known = try await emulator.offlineToken(topic: Self.topic, device: "phone")
            let gone = try await emulator.offlineToken(topic: Self.topic, device: "old-phone")
            let unregistered = try await emulator.admin("/api/v1/devices/\(gone.hex)/unregister", method: "POST")
            let goneAt = try #require((try unregistered.json() as? [String: Any])?["unregisteredAtMs"] as? Int)
            let unknown = String(repeating: "e5", count: 32)

            let run = try await Subprocess.run(
                Self.python,
                [Self.script, "127.0.0.1", String(emulator.gatewayPort), String(emulator.feedbackPort), known.hex, unknown]
            )
            try #require(run.status == 0, "legacy_client.py failed: \(run.stderr)")
            let line = run.stdout.split(separator: "\n").last.map(String.init) ?? ""
            let seen = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(run.stdout)")

            let error = try #require(seen["error"] as? [String: Int], "no error response reached apns3: \(run.stderr)")
            #expect(error == ["status": 8, "identifier": 3])
            let feedback = try #require(seen["feedback"] as? [[Any]])
            #expect(feedback.count == 1)
            #expect(feedback.first?.first as? String == gone.hex)
            #expect(feedback.first?.last as? Int == goneAt / 1000)
            #expect((seen["feedbackAgain"] as? [Any])?.isEmpty == true)

            // 1 and 2 came before the bad one, 4 after it (discarded); 5 by command 0, 6 and 7 in frames.
            let numbers = { try await emulator.queued(known.hex).compactMap { ($0["payload"] as? [String: Any])?["n"] as? Int } }
            #expect(try await eventually { try await numbers().count >= 5 })
            #expect(try await Set(numbers()) == [1, 2, 5, 6, 7])
            let queued = try await emulator.queued(known.hex)
            #expect(queued.allSatisfy { $0["source"] as? String == "binary" })
            #expect(queued.first { ($0["payload"] as? [String: Any])?["n"] as? Int == 7 }?["priority"] as? Int == 5)
        }
    }
}

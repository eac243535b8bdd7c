import APNsTestSupport
import Foundation
import Testing

/// A real provider library's environment switch, flipped as its users flip it: aioapns (PyPI)
/// with `use_sandbox` true and false, its two hosts overridden to the emulator's sandbox and
/// production ports, under `--auth strict` with its own JWTs. Each setting takes the tokens of its
/// environment's builds and gets 400 BadDeviceToken for the other's, as at Apple, and the report
/// card's `environment` check fails naming those requests.
///
/// Sources: Apple, "Sending notification requests to APNs" (api.sandbox.push.apple.com,
/// api.push.apple.com); "Handling notification responses from APNs" (400 BadDeviceToken: "Verify …
/// that the token matches the environment").
@Suite("Both environments with a real provider library")
struct EnvironmentClientTests {
    static let topic = "com.example.app"
    static let python = ProcessInfo.processInfo.environment["APNS_EMULATOR_PYTHON"] ?? "python3"

    @Test("aioapns: use_sandbox=True takes a debug build's token and refuses a TestFlight build's; use_sandbox=False the reverse")
    func aioapnsUseSandbox() async throws {
        let probe = try await Subprocess.run(Self.python, ["-c", "import aioapns"])
        try #require(probe.status == 0, "aioapns is missing: python3 -m pip install aioapns==4.0 (\(probe.stderr))")
        try await withEmulator(configure: { $0.auth = .strict }) { emulator in
            let key = try emulator.registerKey(keyID: "ENVKEY0001", teamID: "DEF123GHIJ", topics: [Self.topic])
            let p8 = emulator.directory.appending("AuthKey_ENVKEY0001.p8")
            try key.p8.write(toFile: p8, atomically: true, encoding: .utf8)
            let debug = try await EnvironmentTests.register(emulator, environment: "development")
            let release = try await EnvironmentTests.register(emulator, environment: "production")
            let run = try await Subprocess.run(
                Self.python,
                [
                    Checkout.thirdParty("aioapns_environments.py"), emulator.caPath, String(emulator.http2Port),
                    String(emulator.productionHTTP2Port), p8, key.keyID, key.teamID, Self.topic, debug, release,
                ])
            try #require(run.status == 0, "aioapns_environments.py failed: \(run.stderr)")
            let line = run.stdout.split(separator: "\n").last.map(String.init) ?? ""
            let seen = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: [String: [Any]]])
            // [status, reason] of each build's push, as aioapns reports them ("200" and no reason on success).
            func answer(_ setting: String, _ build: String) -> [String] {
                (seen[setting]?[build] ?? []).map { $0 as? String ?? "\($0)" }
            }
            #expect(answer("sandbox", "debug").first == "200", "\(seen)")
            #expect(answer("sandbox", "release") == ["400", "BadDeviceToken"], "\(seen)")
            #expect(answer("production", "release").first == "200", "\(seen)")
            #expect(answer("production", "debug") == ["400", "BadDeviceToken"], "\(seen)")
            // The report card's environment check names the two requests sent to the other environment.
            let report = try await emulator.adminObject("/api/v1/providers/token-\(key.teamID)-\(key.keyID)/report")
            let checks = try #require(report["checks"] as? [[String: Any]])
            let check = try #require(checks.first { $0["id"] as? String == "environment" }, "\(checks)")
            let evidence = try #require(check["evidence"] as? [String: Any])
            #expect(check["verdict"] as? String == "fail", "\(check)")
            #expect((evidence["apnsIds"] as? [String])?.count == 2, "\(evidence)")
            #expect(
                (evidence["summary"] as? String)?.contains("2 requests sent 2 tokens to the endpoint of the other environment")
                    == true)
            #expect((check["source"] as? String)?.contains("matches the environment") == true)
            // Each accepted push is journaled at the endpoint its setting chose.
            for (token, environment) in [(debug, "development"), (release, "production")] {
                let accepted = try await emulator.journal("token=\(token)&status=queued")
                #expect(accepted.map { $0["environment"] as? String } == [environment], "\(accepted)")
            }
        }
    }
}

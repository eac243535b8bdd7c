import APNsTestSupport
import Foundation
import Testing

/// Issue 69: every answer to a stream at or below a GOAWAY's last-stream-id is written before the
/// GOAWAY, for the emulator's own GOAWAYs too (a graceful shutdown's `Shutdown`, an idle
/// connection's `IdleTimeout`), not only a fault rule's: a client that stops reading at the GOAWAY
/// (Pushy's `ApnsClient` closes its channel there; `h2` here, `Tests/ThirdParty/goaway_burst.py`)
/// has each answer. RFC 9113, section 6.8: the streams at or below the last-stream-id "might have
/// been processed"; the client learns which from their answers.
@Suite("GOAWAY at shutdown and idle, with answers in flight")
struct GoAwayQuiesceTests {
    static let topic = "com.example.quiesce"
    static let tokens = (1...3).map { String(format: "%02x", 0x50 + $0) + String(repeating: "c3", count: 31) }

    /// Sends three pushes in one write, each held `delay` by a fault rule, runs `quiesce` once the
    /// emulator holds all three, and returns what the client read before the GOAWAY.
    func run(
        _ emulator: RunningEmulator, delayMillis: Int, quiesce: @Sendable () async throws -> Void
    ) async throws -> (goaway: Int?, answers: [String: Int]) {
        let python = ProcessInfo.processInfo.environment["APNS_EMULATOR_PYTHON"] ?? "python3"
        let probe = try await Subprocess.run(python, ["-c", "import h2"])
        try #require(probe.status == 0, "h2 is missing: .ci/run installs httpx[http2], which brings it (\(probe.stderr))")
        _ = try await emulator.adminObject(
            "/api/v1/faults", method: "POST",
            body: #"{"match":{"topic":"\#(Self.topic)"},"action":{"type":"delay","ms":\#(delayMillis)}}"#, status: 201)
        let arguments =
            [Checkout.thirdParty("goaway_burst.py"), "127.0.0.1", String(emulator.http2Port), emulator.caPath, Self.topic]
            + Self.tokens
        async let run = Subprocess.run(python, arguments)
        // The three requests are in: each met the delay rule.
        let held = await eventually(timeout: .seconds(60)) {
            let faults = try? await emulator.admin("/api/v1/faults").json() as? [[String: Any]]
            return faults?.first?["hits"] as? Int == 3
        }
        try #require(held, "the three pushes reached the emulator")
        try await quiesce()
        let finished = try await run
        try #require(finished.status == 0, "goaway_burst.py failed: \(finished.stderr)")
        let result = try #require(
            try JSONSerialization.jsonObject(with: Data(finished.stdout.utf8)) as? [String: Any], "\(finished.stdout)")
        let first = try #require(result["first"] as? [String: Any])
        return (first["goaway"] as? Int, first["answers"] as? [String: Int] ?? [:])
    }

    @Test("a graceful shutdown answers the three pushes it holds, then sends its GOAWAY")
    func shutdown() async throws {
        let emulator = try await RunningEmulator.start()
        let (goaway, answers) = try await self.run(emulator, delayMillis: 1500) { try await emulator.stop() }
        #expect(goaway == 5, "streams 1, 3 and 5 were all processed")
        #expect(answers == Dictionary(uniqueKeysWithValues: Self.tokens.map { ($0, 200) }), "\(answers)")
    }

    @Test("an idle timeout's GOAWAY waits for the answers still on their way")
    func idle() async throws {
        let emulator = try await RunningEmulator.start { $0.http2IdleTimeout = .milliseconds(300) }
        let (goaway, answers) = try await self.run(emulator, delayMillis: 2000) {}
        #expect(goaway == 5, "streams 1, 3 and 5 were all processed")
        #expect(answers == Dictionary(uniqueKeysWithValues: Self.tokens.map { ($0, 200) }), "\(answers)")
        try await emulator.stop()
    }
}

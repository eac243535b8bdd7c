import APNsTestSupport
import Foundation
import Testing

/// What serve's console says of pushes (issue 53): at the default level one summary line per few
/// seconds (accepted with its rate, rejected by reason), never a line per push, which cost a
/// quarter of the rate under load and 45 GB of log an hour; at `debug` a line per push; `--quiet`
/// (or APNS_EMULATOR_QUIET) neither.
@Suite("serve's console lines about pushes")
struct ConsoleLinesTests {
    static let token = String(repeating: "5e", count: 32)
    static let topic = "com.example.console"

    /// Runs serve with `arguments`, sends one accepted and one refused push, stops it (SIGTERM:
    /// the last summary is written at exit) and gives its console lines.
    func lines(_ arguments: [String], environment: [String: String] = [:]) async throws -> [String] {
        let directory = try TemporaryDirectory()
        defer { try? directory.remove() }
        let log = directory.appending("serve.log")
        let emulator = try await EmulatorProcess.start(
            arguments: arguments + ["--data-dir", directory.appending("data"), "--certs-dir", directory.appending("certs")],
            environment: environment, output: log)
        let client = try await HTTP2TestClient.connect(
            host: "127.0.0.1", port: emulator.http2Port, caPath: directory.appending("certs/ca.pem"))
        #expect(try await client.push(token: Self.token, topic: Self.topic).status == 200)
        #expect(
            try await client.push(token: Self.token, headers: [("apns-topic", Self.topic), ("apns-priority", "7")]).status == 400)
        try await client.close()
        let ending = await emulator.kill(SIGTERM)
        #expect(ending.status == 0, "\(ending)")
        // A missing log is a failure, not an empty one: the quiet test would pass on it.
        let lines = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.contains("HTTP/2 provider API on") }, "serve's start-up is in its log: \(lines)")
        return lines
    }

    @Test("info (the default): a summary line with the counts, the rate and the reasons; no line per push")
    func summary() async throws {
        let lines = try await self.lines(["--log-level", "info"])
        let summaries = lines.filter { $0.contains("in the last ") }
        // One summary, or two if the interval ended between the pushes: each count appears once.
        #expect(summaries.contains { $0.contains(": 1 accepted (") && $0.contains("/s)") }, "\(lines)")
        #expect(summaries.contains { $0.contains("1 rejected (400 BadPriority 1)") }, "\(lines)")
        #expect(!lines.contains { $0.contains("accepted 5e5e5e5e") || $0.contains("rejected 400 BadPriority 5e") }, "\(lines)")
    }

    @Test("debug: a line per push (accepted with its latency, rejected with reason and detail)")
    func perPush() async throws {
        let lines = try await self.lines(["--log-level", "debug"])
        #expect(lines.contains { $0.contains("accepted 5e5e5e5e… \(Self.topic) http2 ") && $0.contains(" ms") }, "\(lines)")
        let rejected = try #require(lines.first { $0.contains("rejected 400 BadPriority 5e5e5e5e… \(Self.topic) http2") })
        #expect(rejected.contains("apns-priority was \"7\"; APNs takes 10 (now), 5"), "\(rejected)")
    }

    @Test("--quiet and APNS_EMULATOR_QUIET: neither summaries nor lines per push")
    func quiet() async throws {
        for (arguments, environment) in [(["--log-level", "debug", "--quiet"], [:]), (["--log-level", "debug"], ["APNS_EMULATOR_QUIET": "1"])] {
            let lines = try await self.lines(arguments, environment: environment)
            #expect(!lines.contains { $0.contains("in the last ") || $0.contains("accepted 5e5e5e5e") || $0.contains("rejected 400") }, "\(lines)")
        }
    }
}

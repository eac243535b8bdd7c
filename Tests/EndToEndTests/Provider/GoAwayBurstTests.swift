import APNsTestSupport
import Foundation
import Testing

/// Issue 52: a GOAWAY fault on a connection carrying many pushes at once. RFC 9113, section 6.8:
/// streams above the GOAWAY's last-stream-id were not processed and a client may send them again
/// (Go's transport does so by itself), so the emulator must neither store nor answer them.
/// Driven with the `h2` library (PyPI, `Tests/ThirdParty/goaway_burst.py`): twelve pushes in one
/// write, a goaway rule matching the fourth (stream 7), then every unanswered push resent.
/// Issue 69: every answer to a stream at or below the last-stream-id is written before the GOAWAY,
/// so that a client that stops at the GOAWAY (h2 here, Pushy's ApnsClient) has each one.
@Suite("GOAWAY with many streams in flight")
struct GoAwayBurstTests {
    static let topic = "com.example.burst"

    @Test("nothing above last-stream-id is stored or answered; the client that resends them gets each push stored once; the faulted item is filled")
    func burst() async throws {
        let python = ProcessInfo.processInfo.environment["APNS_EMULATOR_PYTHON"] ?? "python3"
        let probe = try await Subprocess.run(python, ["-c", "import h2"])
        try #require(probe.status == 0, "h2 is missing: .ci/run installs httpx[http2], which brings it (\(probe.stderr))")
        try await withEmulator { emulator in
            let tokens = (1...12).map { String(format: "%02x", 0x40 + $0) + String(repeating: "b7", count: 31) }
            _ = try await emulator.adminObject(
                "/api/v1/faults", method: "POST",
                body: #"{"match":{"token":"\#(tokens[3])"},"action":{"type":"goaway"},"times":1}"#, status: 201)
            let run = try await Subprocess.run(
                python,
                [Checkout.thirdParty("goaway_burst.py"), "127.0.0.1", String(emulator.http2Port), emulator.caPath, Self.topic] + tokens)
            try #require(run.status == 0, "goaway_burst.py failed: \(run.stderr)")
            let result = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any], "\(run.stdout)")
            let first = try #require(result["first"] as? [String: Any])
            #expect(first["goaway"] as? Int == 5, "streams 1, 3 and 5 were processed: \(first)")
            let answers = first["answers"] as? [String: Int] ?? [:]
            // h2 stops reading at the GOAWAY, as Pushy's ApnsClient closes its channel there (issue
            // 69): the three processed streams' answers come before it, each a 200.
            #expect(answers == Dictionary(uniqueKeysWithValues: tokens.prefix(3).map { ($0, 200) }), "\(answers)")
            let resent = result["resent"] as? [String: Int] ?? [:]
            #expect(resent == Dictionary(uniqueKeysWithValues: tokens.dropFirst(3).map { ($0, 200) }), "\(resent)")

            // Each push stored once: what the first connection did not process was not stored.
            for token in tokens {
                #expect(try await emulator.queued(token).count == 1, "\(token)")
            }
            let faulted = try #require(try await emulator.journal("token=\(tokens[3])&status=rejected").first)
            #expect(faulted["apnsId"] is String && faulted["httpStatus"] as? Int == 503, "\(faulted)")
            #expect(faulted["port"] as? Int == emulator.http2Port && (faulted["detail"] as? String)?.contains("GOAWAY") == true)
            // Not processed is not rejected (issue 69): the client saw no refusal, and may resend.
            var notProcessed = 0
            for token in tokens.dropFirst(4) {
                #expect(try await emulator.journal("token=\(token)&status=rejected").isEmpty, "\(token)")
                let first = try await emulator.journal("token=\(token)&status=notProcessed")
                notProcessed += first.count
                #expect(first.count <= 1 && first.allSatisfy { ($0["detail"] as? String)?.hasPrefix("not processed") == true }, "\(first)")
                #expect(
                    first.allSatisfy {
                        ($0["phoneOutcome"] as? [String: Any])?["text"] as? String == "not processed (after a GOAWAY): never reached the phone"
                    }, "\(first)")
            }
            let metrics = try await emulator.admin("/metrics").text
            #expect(metrics.contains("apns_notifications_not_processed_total \(notProcessed)"), "\(notProcessed) journaled")
        }
    }
}

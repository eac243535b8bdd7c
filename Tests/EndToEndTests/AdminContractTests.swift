import APNsTestSupport
import Foundation
import Testing

/// The admin API keeps the contract its OpenAPI document states: schemathesis (PyPI) generates
/// valid and invalid requests from /openapi.json and checks every answer against it (issue 13,
/// item 14). Bounded: 30 examples per operation, a fixed seed, at most two minutes.
@Suite("Admin API: the OpenAPI contract")
struct AdminContractTests {
    @Test("schemathesis finds no mismatch between /openapi.json and the answers")
    func schemathesis() async throws {
        let probe = try await Subprocess.run("schemathesis", ["--version"])
        try #require(probe.status == 0, "schemathesis is missing: python3 -m pip install schemathesis==4.32.5")
        let emulator = try await RunningEmulator.start()
        let run = try await Subprocess.run("timeout", [
            "120", "schemathesis", "run", "http://127.0.0.1:\(emulator.adminPort)/openapi.json",
            "--checks", "all", "-n", "30", "--seed", "1", "--max-failures", "10",
            // A long poll answers 408 when nothing arrives, and the event stream never ends: both
            // have tests of their own.
            "--exclude-path", "/api/v1/notifications/wait", "--exclude-path", "/api/v1/events",
        ])
        #expect(run.status == 0, "schemathesis found mismatches:\n\(run.stdout.suffix(6000))\n\(run.stderr.suffix(2000))")
        try await emulator.stop()
    }
}

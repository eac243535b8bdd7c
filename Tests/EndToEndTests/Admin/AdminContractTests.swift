import APNsTestSupport
import Foundation
import Testing

/// The admin API keeps the contract its OpenAPI document states: schemathesis (PyPI) generates
/// valid and invalid requests from /openapi.json and checks every answer against it (issue 13,
/// item 14). Bounded: 30 examples per operation, deterministic, at most two minutes.
@Suite("Admin API: the OpenAPI contract")
struct AdminContractTests {
    @Test("schemathesis finds no mismatch between /openapi.json and the answers")
    func schemathesis() async throws {
        let python = ProcessInfo.processInfo.environment["APNS_EMULATOR_PYTHON"] ?? "python3"
        let probe = try await Subprocess.run(python, ["-c", "import schemathesis"])
        try #require(probe.status == 0, "schemathesis is missing: python3 -m pip install schemathesis==4.32.5 (\(probe.stderr))")
        // Through the interpreter rather than the console script, which a fresh pyenv may not have on PATH yet.
        let cli = "import sys; from schemathesis.cli import schemathesis; sys.argv[0] = 'schemathesis'; sys.exit(schemathesis())"
        // POST /api/v1/push goes through the provider API's intake, where the delay faults
        // the first run adds would hold its answers for up to a minute: it has a run of its own,
        // on an emulator without faults.
        // With an admin token, as a shared emulator runs: every call carries it, and schemathesis's
        // ignored_auth check finds each secured operation refusing a call without it (issue 51).
        let token = "contract-test-admin-token"
        for scope in [["--exclude-path", "/api/v1/push"], ["--include-path", "/api/v1/push"]] {
            try await withEmulator(configure: { $0.adminToken = token }) { emulator in
                let run = try await Subprocess.run(
                    "timeout",
                    [
                        "120", python, "-c", cli, "run", "http://127.0.0.1:\(emulator.adminPort)/openapi.json",
                        "--checks", "all", "-n", "30", "--seed", "1", "--max-failures", "10", "-H", "Authorization: Bearer \(token)",
                        // The same examples every run (issue 37: the stateful phase found a mismatch on
                        // some runs only): deterministic generation, one worker.
                        "--generation-deterministic", "--workers", "1",
                        // A long poll answers 408 when nothing arrives, and the event stream never ends: both
                        // have tests of their own.
                        "--exclude-path", "/api/v1/notifications/wait", "--exclude-path", "/api/v1/events",
                    ] + scope)
                #expect(
                    run.status == 0,
                    "schemathesis found mismatches (\(scope)):\n\(run.stdout.suffix(6000))\n\(run.stderr.suffix(2000))")
            }
        }
    }
}

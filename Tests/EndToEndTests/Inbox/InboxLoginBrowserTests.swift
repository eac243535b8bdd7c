import APNsServer
import APNsTestSupport
import Foundation
import Testing

/// Issue 51 in a real browser (`Tests/ThirdParty/inbox_login.py`, headless Chromium at 1400 and
/// 390 pixels): the login page of an emulator with an admin token, the inbox it opens, a page of
/// another site that cannot reset an emulator, a rebound name refused.
@Suite("Web inbox: login, other sites, rebound names")
struct InboxLoginBrowserTests {
    @Test("the login page takes the token once (HttpOnly cookie), the inbox then streams; another site's POST and a rebound name are refused")
    func login() async throws {
        let python = ProcessInfo.processInfo.environment["APNS_EMULATOR_PYTHON"] ?? "python3"
        let probe = try await Subprocess.run(python, ["-c", "import selenium"])
        try #require(probe.status == 0, "selenium is missing: .ci/run installs it (\(probe.stderr))")
        let started = Date()
        let token = AdminAccess.makeToken()
        try await withEmulator(configure: { $0.adminToken = token }) { locked in
            try await withEmulator { open in
                let run = try await Subprocess.run(
                    "timeout",
                    [
                        "180", python, Checkout.thirdParty("inbox_login.py"), "http://127.0.0.1:\(locked.adminPort)", token,
                        "http://127.0.0.1:\(open.adminPort)", InboxBrowserTests.screenshots,
                    ])
                #expect(run.status == 0, "the browser test failed:\n\(run.stdout.suffix(4000))\n\(run.stderr.suffix(3000))")
                let shots = ["login-1400.png", "login-390.png", "login-inbox-1400.png"]
                let stale = InboxBrowserTests.notSaved(shots, since: started)
                #expect(stale.isEmpty, "not saved by this run: \(stale)")
            }
        }
    }
}

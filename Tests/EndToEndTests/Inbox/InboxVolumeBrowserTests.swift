import APNsServer
import APNsTestSupport
import Foundation
import Testing

/// Issue 50: the web inbox after a load test, as a person sees it, in headless Chromium at 1400 and
/// 390 pixels (`Tests/ThirdParty/inbox_volume.py`): the list is the journal (true totals, filters and
/// search on the server, older rows as it scrolls, the state in the URL), every row says what the
/// phone did, the detail is a pane beside the list, and the phone view is one phone per device.
@Suite("Web inbox at volume")
struct InboxVolumeBrowserTests {
    @Test(
        "after 5,000 pushes with rejections among them: totals, filters, search, outcomes, the detail pane, one phone per device")
    func volume() async throws {
        let python = ProcessInfo.processInfo.environment["APNS_EMULATOR_PYTHON"] ?? "python3"
        let probe = try await Subprocess.run(python, ["-c", "import selenium, pywebpush"])
        try #require(probe.status == 0, "selenium or pywebpush is missing: .ci/run installs them (\(probe.stderr))")
        let seed = Checkout.root.appendingPathComponent("docs/seeds/typical-app.yaml").path
        // Every push kept while the iPhone is offline (not the default, one per app): the script
        // counts the six that wait for it, and the threads they make on the phone.
        let started = Date()
        let emulator = try await RunningEmulator.start(seed: try SeedDocument.read(seed)) { $0.storagePolicy = .all }
        do {
            let run = try await Subprocess.run(
                "timeout",
                [
                    "420", python, Checkout.thirdParty("inbox_volume.py"), "http://127.0.0.1:\(emulator.adminPort)",
                    String(emulator.http2Port), emulator.caPath, InboxBrowserTests.screenshots, Subprocess.emulatorExecutable,
                    String(emulator.devicePort),
                ])
            #expect(run.status == 0, "the browser test failed:\n\(run.stdout.suffix(5000))\n\(run.stderr.suffix(3000))")
            let stale = InboxBrowserTests.notSaved(
                [
                    "volume-inbox-1400.png", "volume-search-1400.png", "volume-detail-1400.png", "volume-inbox-390.png",
                    "volume-detail-390.png", "volume-phone-1400.png", "volume-phone-390.png",
                ], since: started)
            #expect(stale.isEmpty, "not saved by this run: \(stale)")
            try await emulator.stop()
        } catch {
            try? await emulator.stop()
            throw error
        }
    }
}

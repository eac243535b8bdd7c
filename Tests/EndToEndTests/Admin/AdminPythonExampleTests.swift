import APNsTestSupport
import Foundation
import Testing

/// The Python integration-test example in docs/fixtures.md, run as it is against a running emulator.
@Suite("Admin API: the documented Python example")
struct AdminPythonExampleTests {
    static let root = Checkout.root
    static let script = root.appendingPathComponent("Tests/ThirdParty/admin_example.py").path
    static let python = ProcessInfo.processInfo.environment["APNS_EMULATOR_PYTHON"] ?? "python3"

    @Test("admin_example.py passes: waits for the app's push, sees the injected TooManyRequests and the retry")
    func example() async throws {
        let probe = try await Subprocess.run(Self.python, ["-c", "import aioapns"])
        try #require(probe.status == 0, "aioapns is missing: python3 -m pip install aioapns==4.0 (\(probe.stderr))")
        try await withEmulator { emulator in
            let run = try await Subprocess.run(
                Self.python, [Self.script, "http://127.0.0.1:\(emulator.adminPort)", String(emulator.http2Port), emulator.caPath]
            )
            #expect(run.status == 0, "admin_example.py failed: \(run.stdout) \(run.stderr)")
            #expect(run.stdout.hasSuffix("ok\n"))
            // It really ran against this emulator: the last test's pushes are in its journal.
            #expect(try await emulator.journal("status=rejected").first?["reason"] as? String == "TooManyRequests")
        }
    }

    @Test("the fixtures page shows the example's tests as they are in the script")
    func readmeMatches() throws {
        let readme = try String(contentsOf: Self.root.appendingPathComponent("docs/fixtures.md"), encoding: .utf8)
        let script = try String(contentsOfFile: Self.script, encoding: .utf8)
        // The page's Python block with this example (the pytest plugin's comes before it).
        let blocks = readme.components(separatedBy: "```python\n").dropFirst().compactMap {
            $0.components(separatedBy: "```").first
        }
        let block = try #require(blocks.first { $0.contains("def test_welcome_push_reaches_the_device") })
        #expect(script.contains(block), "docs/fixtures.md's Python block differs from Tests/ThirdParty/admin_example.py")
    }
}

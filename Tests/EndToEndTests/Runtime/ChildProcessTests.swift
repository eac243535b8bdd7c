import APNsTestSupport
import Foundation
import Testing

/// Processes a test starts (serve, device, the push command) are known until waited for, and
/// whatever is still running when the test process exits is killed then.
@Suite("Child processes")
struct ChildProcessTests {
    @Test("a child is known from its start until it is waited for")
    func bookkeeping() async throws {
        let directory = try TemporaryDirectory()
        let child = try BackgroundProcess("sleep", ["600"], output: directory.appending("sleep.out"))
        #expect(Spawn.runningChildren.contains(child.pid))
        kill(child.pid, SIGKILL)
        _ = await child.wait()
        #expect(!Spawn.runningChildren.contains(child.pid))
        try directory.remove()
    }
}

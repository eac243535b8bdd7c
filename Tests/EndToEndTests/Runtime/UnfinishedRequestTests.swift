import APNsProviderClient
import APNsTestSupport
import Foundation
import NIOHTTP2
import Testing

@Suite("Shutdown with unfinished requests")
struct UnfinishedRequestTests {
    @Test("a stream that never ends holds shutdown only for the grace period", .timeLimit(.minutes(1)))
    func unfinishedStreamDoesNotBlockShutdown() async throws {
        let emulator = try await RunningEmulator.start { $0.shutdownGrace = .seconds(1) }
        let client = try await emulator.http2Client()
        // HEADERS without END_STREAM and no DATA: the request never completes.
        let pending = try await client.begin(path: "/3/device/\(DurabilityTests.token)", endStream: false)
        // Frames of one connection are handled in order: once a later push is answered, the
        // unfinished stream is open on the server.
        #expect(try await client.push(token: DurabilityTests.token).status == 200)
        let started = ContinuousClock.now
        try await emulator.stop()
        let waited = ContinuousClock.now - started
        #expect(waited >= .milliseconds(900), "shutdown did not wait for the open stream")
        #expect(waited < .seconds(10), "shutdown waited past the grace period")
        let events = try await client.waitForEvents { $0.goAway != nil }
        #expect(events.goAway?.debugData == #"{"reason":"Shutdown"}"#)
        await #expect(throws: ProviderClientError("the stream closed before APNs answered")) { try await pending.get() }
    }
}

import APNsCore
import APNsDeviceClient
import APNsTestSupport
import Foundation
import NIOHTTP2
import Testing

/// Silent connections do not live forever (issue 13, item 4): HTTP/2 gets APNs' GOAWAY
/// IdleTimeout, a device that does not even ping is closed, each after its own timeout. The
/// tests wait for the outcome, never for a time; the timeouts are 5 s so that a handshake slowed
/// by a busy machine (the idle clock counts bytes on the wire) is not taken for silence. The
/// deadlines are 90 s: while another suite's schemathesis run goes on, emulators in this process
/// were seen acting 20-30 s late (see HandshakeTimeoutTests); a connection never closed still fails.
@Suite("Idle timeouts")
struct IdleTimeoutTests {
    @Test("a silent HTTP/2 connection gets GOAWAY with reason IdleTimeout, then closes")
    func http2() async throws {
        let emulator = try await RunningEmulator.start { $0.http2IdleTimeout = .seconds(5) }
        let provider = try await emulator.http2Client()
        let events = try await provider.waitForEvents(timeout: .seconds(90)) { $0.goAway != nil && $0.closed }
        let goAway = try #require(events.goAway)
        #expect(goAway.errorCode == .noError)
        #expect(goAway.lastStreamID == HTTP2StreamID(0), "no stream was opened")
        #expect(goAway.debugData == #"{"reason":"IdleTimeout"}"#)
        try await emulator.stop()
    }

    @Test("a device that sends nothing, not even a ping, is closed")
    func device() async throws {
        let emulator = try await RunningEmulator.start { $0.deviceIdleTimeout = .seconds(5) }
        let silent = try await emulator.device("silent")
        await #expect { _ = try await silent.next(within: .seconds(90)) } throws: { ($0 as? DeviceClientError)?.code == .closed }
        try await emulator.stop()
    }
}

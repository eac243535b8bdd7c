import APNsCore
import APNsDeviceClient
import APNsTestSupport
import Foundation
import NIOHTTP2
import Testing

/// Silent connections do not live forever (issue 13, item 4): HTTP/2 gets APNs' GOAWAY
/// IdleTimeout, a device that does not even ping is closed, each after its own timeout.
///
/// Each runs the built emulator in a process of its own (issue 37): an in-process emulator shares
/// its event loops with the hundreds of tests around it, and on a loaded machine its timers fired
/// late enough to pass any deadline. The tests wait for the connection to end, never for a time,
/// and judge the ending at once: closed without GOAWAY is a failure when it happens, not 90 s later.
@Suite("Idle timeouts")
struct IdleTimeoutTests {
    @Test("a silent HTTP/2 connection gets GOAWAY with reason IdleTimeout, then closes")
    func http2() async throws {
        try await EmulatorProcess.scoped(["--http2-idle-timeout", "5"]) { emulator, ca in
            // Timed from before the connect: the server's clock starts later, so a busy machine can
            // only make the measured time longer, never shorter than the timeout.
            let started = ContinuousClock.now
            let provider = try await HTTP2TestClient.connect(host: "127.0.0.1", port: emulator.http2Port, caPath: ca)
            // Whatever ends the connection ends the wait; the assertions then say if it was right.
            let events = try await provider.waitForEvents(timeout: .seconds(90)) { $0.closed || $0.resetByPeer }
            let after = ContinuousClock.now - started
            #expect(after >= .milliseconds(4900), "closed after \(after), before the 5 s idle timeout")
            let goAway = try #require(events.goAway, "the connection ended without GOAWAY: \(events)")
            #expect(goAway.errorCode == .noError)
            #expect(goAway.lastStreamID == HTTP2StreamID(0), "no stream was opened")
            #expect(goAway.debugData == #"{"reason":"IdleTimeout"}"#)
        }
    }

    @Test("a device that sends nothing, not even a ping, is closed")
    func device() async throws {
        try await EmulatorProcess.scoped(["--device-idle-timeout", "5"]) { emulator, ca in
            let started = ContinuousClock.now
            let silent = try await DeviceClient.connect(
                host: "127.0.0.1", port: emulator.devicePort, caPath: ca, deviceID: "silent")
            defer {
                let after = ContinuousClock.now - started
                #expect(after >= .milliseconds(4900), "closed after \(after), before the 5 s idle timeout")
            }
            do {
                let notification = try await silent.next(within: .seconds(90))
                Issue.record("a silent device was sent \(notification) instead of being closed")
            } catch let error as DeviceClientError where error.code == .closed {
                // Closed by the emulator: what a silent device gets.
            } catch {
                // The server's close can race the client's last TLS record into a TCP reset:
                // the device is disconnected all the same. A wait that timed out is not that.
                #expect("\(error)".contains("reset by peer"), "the device was not closed: \(error)")
            }
        }
    }
}

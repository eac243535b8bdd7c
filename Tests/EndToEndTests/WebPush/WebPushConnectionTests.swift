import APNsTestSupport
import Foundation
import NIOHTTP2
import Testing

/// A Web Push sender's HTTP/2 connection ends as a provider's does: GOAWAY when it has been idle
/// for the idle timeout, and at shutdown GOAWAY naming the last stream answered, then closed,
/// so that a sender that keeps its connection open (Java's HttpClient does) cannot hold the
/// emulator's exit. Each test waits for the connection to end, never for a time.
@Suite("Web Push: connections end")
struct WebPushConnectionTests {
    @Test("an idle Web Push HTTP/2 connection gets GOAWAY, then closes")
    func idle() async throws {
        try await EmulatorProcess.scoped(["--http2-idle-timeout", "5"]) { emulator, ca in
            let port = try #require(emulator.ports["Web Push service"])
            let sender = try await HTTP2TestClient.connect(host: "127.0.0.1", port: port, caPath: ca)
            let events = try await sender.waitForEvents(timeout: .seconds(90)) { $0.closed || $0.resetByPeer }
            let goAway = try #require(events.goAway, "the connection ended without GOAWAY: \(events)")
            #expect(goAway.errorCode == .noError && goAway.lastStreamID == HTTP2StreamID(0))
        }
    }

    @Test("at SIGTERM a sender's open HTTP/2 connection gets GOAWAY naming its last stream and is closed; the emulator exits")
    func shutdown() async throws {
        let directory = try TemporaryDirectory()
        defer { try? directory.remove() }
        let emulator = try await EmulatorProcess.start(
            arguments: ["--data-dir", directory.appending("data"), "--certs-dir", directory.appending("certs")],
            output: directory.appending("emulator.log"), awaiting: EmulatorProcess.everyListener + ["Web Push service"])
        do {
            let port = try #require(emulator.ports["Web Push service"])
            let sender = try await HTTP2TestClient.connect(
                host: "127.0.0.1", port: port, caPath: directory.appending("certs/ca.pem"))
            let answer = try await sender.send(path: "/push/nobody", body: Array("x".utf8))
            #expect(answer.status == 404, "no such subscription")
            // The connection stays open, as a sender's pool keeps it; the emulator is told to stop.
            kill(emulator.pid, SIGTERM)
            let events = try await sender.waitForEvents(timeout: .seconds(90)) { $0.closed || $0.resetByPeer }
            let goAway = try #require(events.goAway, "the connection ended without GOAWAY: \(events)")
            #expect(goAway.errorCode == .noError && goAway.lastStreamID == HTTP2StreamID(1), "\(goAway)")
            let ending = await emulator.kill(SIGTERM)
            #expect(ending.status == 0, "\(ending)")
        } catch {
            await emulator.kill(SIGKILL)
            throw error
        }
    }
}

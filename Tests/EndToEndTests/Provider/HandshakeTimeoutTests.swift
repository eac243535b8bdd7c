import APNsTestSupport
import Foundation
import NIOCore
import NIOPosix
import Synchronization
import Testing

/// A connection to a TLS port that never finishes its handshake is closed after the handshake
/// timeout, on every TLS port (issue 13, item 4): before, 2,000 such connections were held forever.
@Suite("TLS handshake timeout")
struct HandshakeTimeoutTests {
    /// Opens a plain TCP connection that never sends a byte and waits for it to end: true when the
    /// server closed it, false when the test's own 90-second watchdog had to (a server that never
    /// closes fails).
    static func serverClosesSilentConnection(
        port: Int, group: any EventLoopGroup
    ) async throws -> (closedByServer: Bool, after: Duration) {
        // Timed from before the connect: the server's clock starts at its accept, which comes after,
        // so a busy machine delaying this task can only make the measured time longer.
        let started = ContinuousClock.now
        let channel = try await ClientBootstrap(group: group).connect(host: "127.0.0.1", port: port).get()
        let watchdogFired = Mutex(false)
        let closedAt = Mutex<ContinuousClock.Instant?>(nil)
        let watchdog = channel.eventLoop.scheduleTask(in: .seconds(90)) {
            watchdogFired.withLock { $0 = true }
            channel.close(promise: nil)
        }
        // Decided on the channel's event loop, not when this task resumes: a test process whose
        // concurrency threads are busy must not read a prompt close as a late one.
        channel.closeFuture.whenComplete { _ in
            watchdog.cancel()
            closedAt.withLock { $0 = .now }
        }
        try await channel.closeFuture.get()
        let ended = closedAt.withLock { $0 } ?? .now
        return (!watchdogFired.withLock { $0 }, ended - started)
    }

    @Test("HTTP/2, gateway, feedback and device ports close a silent TCP connection after --handshake-timeout")
    func silentConnectionsAreClosed() async throws {
        // In a process of its own (issue 37): in process, the emulator's timers shared the event
        // loops with the whole suite. Idle timeouts longer than the handshake timeout, so that
        // they are not what closes the connections.
        let arguments = [
            "--handshake-timeout", "3", "--idle-timeout", "60", "--http2-idle-timeout", "60", "--device-idle-timeout", "60",
        ]
        try await EmulatorProcess.scoped(arguments) { emulator, _ in
            let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
            let ports = [
                ("http2", emulator.http2Port), ("gateway", emulator.gatewayPort), ("feedback", emulator.feedbackPort),
                ("device", emulator.devicePort),
            ]
            try await withThrowingTaskGroup(of: Void.self) { tasks in
                for (name, port) in ports {
                    tasks.addTask {
                        let (closedByServer, after) = try await Self.serverClosesSilentConnection(port: port, group: group)
                        #expect(closedByServer, "\(name): still open after 90 s")
                        #expect(after >= .milliseconds(2900), "\(name): closed after \(after), before the timeout")
                        // Both sides of the bound: the idle timeouts (60 s) closing it would pass the one above.
                        #expect(after < .seconds(50), "\(name): closed after \(after), not by the 3 s handshake timeout")
                    }
                }
                try await tasks.waitForAll()
            }
            try await group.shutdownGracefully()
        }
    }
}

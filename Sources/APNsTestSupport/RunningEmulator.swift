import APNsEmulatorTesting
import APNsServer
import Foundation

/// A real emulator on port 0 with its own data and certificate directories, for end-to-end tests:
/// the testing library's ``TestEmulator`` in a ``TemporaryDirectory``, with every port at hand.
public final class RunningEmulator: Sendable {
    public let testEmulator: TestEmulator
    public let directory: TemporaryDirectory

    public var emulator: Emulator { self.testEmulator.emulator }
    public var addresses: ListeningAddresses { self.testEmulator.addresses }
    /// Whether `stop()` has shut the emulator down and its store is closed.
    public var hasStopped: Bool { self.testEmulator.hasStopped }

    /// The throw-away CA the emulator's server certificate chains to.
    public var caPath: String { self.testEmulator.caPath }
    public var http2Port: Int { self.addresses.port(.http2) }
    public var productionHTTP2Port: Int { self.addresses.port(.http2Production) }
    public var adminPort: Int { self.addresses.port(.admin) }
    public var devicePort: Int { self.addresses.port(.device) }
    public var gatewayPort: Int { self.addresses.port(.gateway) }
    public var feedbackPort: Int { self.addresses.port(.feedback) }
    public var channelsPort: Int { self.addresses.port(.channels) }
    /// The cleartext HTTP/2 port, when the configuration asked for one (`h2cPort`).
    public var h2cPort: Int { self.addresses.port(.h2c) }
    /// The Web Push service's port.
    public var webPushPort: Int { self.addresses.port(.webPush) }
    public var dataDirectory: String { self.emulator.configuration.dataDirectory }

    /// Starts an emulator. `configure` may change anything; ports and directories default to
    /// fresh ones (pass `directory` to reuse a data directory across a restart).
    public static func start(
        directory: TemporaryDirectory? = nil,
        seed: SeedDocument? = nil,
        configure: (inout EmulatorConfiguration) -> Void = { _ in }
    ) async throws -> RunningEmulator {
        let directory = try directory ?? TemporaryDirectory()
        let running = try await TestEmulator.start(in: directory.path, seed: seed, configure: configure)
        return RunningEmulator(running: running, directory: directory)
    }

    private init(running: TestEmulator, directory: TemporaryDirectory) {
        self.testEmulator = running
        self.directory = directory
    }

    /// Shuts down gracefully and waits until the store is closed.
    public func stop() async throws {
        try await self.testEmulator.shutdown()
    }

    /// A new HTTP/2 client connected to this emulator, trusting its CA and presenting `identity`.
    public func http2Client(identity: ClientIdentity? = nil) async throws -> HTTP2TestClient {
        try await HTTP2TestClient.connect(host: "127.0.0.1", port: self.http2Port, caPath: self.caPath, identity: identity)
    }

    /// The notifications queued for `token`, as the admin API lists them.
    public func queued(_ token: String) async throws -> [[String: Any]] {
        let response = try await self.admin("/api/v1/devices/\(token)/notifications")
        guard response.status == 200, let items = try response.json() as? [[String: Any]] else {
            throw AdminTestClient.UnexpectedResponse(response: response)
        }
        return items
    }

    /// A request to the admin API, with the emulator's admin token when it has one; returns status and body.
    public func admin(
        _ path: String, method: String = "GET", body: String? = nil, headers: [(name: String, value: String)] = []
    ) async throws -> AdminTestClient.Response {
        try await AdminTestClient.request(
            host: "127.0.0.1", port: self.adminPort, method: method, path: path, body: body,
            token: self.emulator.configuration.adminToken, headers: headers)
    }
}

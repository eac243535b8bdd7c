import APNsServer
import APNsStore
import Foundation
import Logging
import NIOCore
import Synchronization

/// A real emulator on port 0 with its own data and certificate directories, for end-to-end tests.
public final class RunningEmulator: Sendable {
    public let emulator: Emulator
    public let addresses: ListeningAddresses
    public let directory: TemporaryDirectory
    private let task: Task<Void, any Error>
    private let stopped = Mutex(false)
    private let finished = Mutex(false)

    /// Whether `stop()` has shut the emulator down and its store is closed.
    public var hasStopped: Bool { self.finished.withLock { $0 } }

    /// The throw-away CA the emulator's server certificate chains to.
    public var caPath: String { self.emulator.configuration.certificatesDirectory + "/ca.pem" }
    public var http2Port: Int { self.addresses.port(.http2) }
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
        // Hundreds of emulators and their clients in one test process: as an ordinary user the
        // default soft limit of 1024 descriptors ran out (issue 37).
        _ = Self.descriptorLimit
        let directory = try directory ?? TemporaryDirectory()
        var configuration = EmulatorConfiguration()
        configuration.http2Port = 0
        configuration.adminPort = 0
        configuration.devicePort = 0
        configuration.gatewayPort = 0
        configuration.feedbackPort = 0
        configuration.channelsPort = 0
        configuration.eventLoopThreads = 2
        // A shared two-core machine can stall a process for many seconds (a CI run saw a dozen
        // connections reset at once): tests that are not about the handshake timeout should not
        // fail on it. The handshake-timeout tests set their own.
        configuration.handshakeTimeout = .seconds(60)
        configuration.dataDirectory = directory.appending("data")
        configuration.certificatesDirectory = directory.appending("certs")
        configuration.certificatePath = directory.appending("certs/server.pem")
        configuration.privateKeyPath = directory.appending("certs/server-key.pem")
        configuration.keysDirectory = directory.appending("keys")
        configure(&configuration)
        var logger = Logger(label: "apns-emulator-test")
        logger.logLevel = ProcessInfo.processInfo.environment["APNS_EMULATOR_TEST_LOG"] == nil ? .critical : .debug
        try seed?.prepare(&configuration)
        let emulator = try Emulator(configuration: configuration, logger: logger, signals: [])
        // The seed's world is there before the first listener opens.
        if let seed { try await emulator.apply(seed, origin: "seed") }
        let task = Task { try await emulator.run() }
        do {
            let addresses = try await emulator.listening()
            return RunningEmulator(emulator: emulator, addresses: addresses, directory: directory, task: task)
        } catch {
            task.cancel()
            _ = await task.result
            throw error
        }
    }

    /// Raised once per test process.
    private static let descriptorLimit: UInt64? = FileDescriptorLimit.raiseToHard()

    private init(emulator: Emulator, addresses: ListeningAddresses, directory: TemporaryDirectory, task: Task<Void, any Error>) {
        self.emulator = emulator
        self.addresses = addresses
        self.directory = directory
        self.task = task
    }

    /// An emulator no one stopped (a test that threw before its `stop()`) is shut down when the
    /// last reference to it goes; `withEmulator` stops it at the end of its scope anyway.
    deinit {
        guard !self.stopped.withLock({ $0 }) else { return }
        let emulator = self.emulator
        Task { await emulator.shutdown() }
    }

    /// Shuts down gracefully and waits until the store is closed.
    public func stop() async throws {
        self.stopped.withLock { $0 = true }
        await self.emulator.shutdown()
        try await self.task.value
        self.finished.withLock { $0 = true }
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

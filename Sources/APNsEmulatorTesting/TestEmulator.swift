import APNsAdminClient
import APNsCore
import APNsServer
import Foundation
import Logging
import Synchronization

/// An apns-emulator running in the test's own process, on free ports with a throw-away store,
/// certificates and keys: the APNs your server under test pushes to. Works from Swift Testing and
/// XCTest alike (everything is `async`); call ``shutdown()`` at the end.
///
/// ```swift
/// let emulator = try await TestEmulator.start(auth: .none)
/// // configure your APNs client (APNSwift, ...) with emulator.providerURL and emulator.caPEM
/// let token = try await emulator.registerDevice(topic: "com.example.app")
/// try await myServer.notifyOrderShipped(deviceToken: token)
/// let sent = try await emulator.waitFor(token: token, topic: "com.example.app")
/// #expect(sent.alertTitle == "Order shipped")
/// try await emulator.shutdown()
/// ```
public final class TestEmulator: Sendable {
    /// How providers authenticate: `none` takes any provider, `strict` wants a certificate or a
    /// provider token as APNs does (``createKey(keyID:teamID:topics:)`` makes a key it trusts).
    public enum Auth: Sendable {
        /// Any provider, with any `authorization` header or none, for any topic.
        case none
        /// A client certificate or a provider token, as APNs requires.
        case strict
    }

    /// The emulator itself, for what this type does not wrap.
    public let emulator: Emulator
    /// Where each listener is (port 0 became a free port).
    public let addresses: ListeningAddresses
    /// The directory of its store, certificates and keys.
    public let directory: String
    /// Whether ``shutdown()`` removes ``directory``: a directory this type made, not one it was given.
    private let ownsDirectory: Bool
    private let task: Task<Void, any Error>
    private let stopped = Mutex(false)
    private let finished = Mutex(false)

    /// The address every listener is on.
    public let host = "127.0.0.1"
    /// The HTTP/2 provider API's port.
    public var http2Port: Int { self.addresses.port(.http2) }
    /// The production endpoint's HTTP/2 provider API port (`api.push.apple.com`'s); ``http2Port``
    /// serves the sandbox unless the configuration's environment says otherwise.
    public var productionHTTP2Port: Int { self.addresses.port(.http2Production) }
    /// The admin API's (and the web inbox's) port.
    public var adminPort: Int { self.addresses.port(.admin) }
    /// The device listener's port (``connectDevice(id:)``).
    public var devicePort: Int { self.addresses.port(.device) }
    /// The provider API's base URL (the server certificate names `localhost` and `127.0.0.1`).
    public var providerURL: String { "https://localhost:\(self.http2Port)" }
    /// The sandbox endpoint (Apple: api.sandbox.push.apple.com), where a provider's development
    /// setting points: ``providerURL``.
    public var sandboxURL: String { self.providerURL }
    /// The production endpoint (Apple: api.push.apple.com), where a provider's production setting
    /// points. A token of a development build is 400 BadDeviceToken here, as at Apple.
    public var productionURL: String { "https://localhost:\(self.productionHTTP2Port)" }
    /// The base URL of `environment`'s endpoint.
    /// - Parameter environment: development (the sandbox) or production.
    public func url(for environment: APNsEnvironment) -> String {
        environment == .production ? self.productionURL : self.sandboxURL
    }
    /// The admin API's base URL (inspection, faults, clock; also the web inbox).
    public var adminURL: String { "http://\(self.host):\(self.adminPort)" }
    /// The admin token the admin API asks for, nil when it asks for none: set one with
    /// `configure: { $0.adminToken = ... }`, or bind beyond loopback (`$0.host = "0.0.0.0"`) and
    /// the emulator makes one. This type sends it itself; a request of your own to ``adminURL``
    /// sends it as `Authorization: Bearer <token>`.
    public var adminToken: String? { self.emulator.configuration.adminToken }
    /// The development CA the server certificate chains to: trust it in the client under test.
    public var caPath: String { self.emulator.configuration.certificatesDirectory + "/ca.pem" }
    /// The development CA as PEM text, for a client that takes the certificate itself.
    public var caPEM: String { (try? String(contentsOfFile: self.caPath, encoding: .utf8)) ?? "" }
    /// Whether ``shutdown()`` has stopped the emulator and its store is closed.
    public var hasStopped: Bool { self.finished.withLock { $0 } }

    /// Starts an emulator on port 0 with an ephemeral store. `seed` is a seed file (JSON or YAML,
    /// `docs/seed.schema.json`) whose world it starts with; `configure` may change any setting.
    public static func start(
        auth: Auth = .none, seed: String? = nil, configure: (inout EmulatorConfiguration) -> Void = { _ in }
    ) async throws -> TestEmulator {
        let document = try seed.map { try SeedDocument.read($0, option: "seed") }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("apns-emulator-\(UUID().uuidString)").path
        // Private to the user: it holds the emulator's keys and store.
        try FileManager.default.createDirectory(
            atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        do {
            return try await Self.start(in: directory, ownsDirectory: true, seed: document) { configuration in
                configuration.auth = auth == .strict ? .strict : .none
                configure(&configuration)
            }
        } catch {
            try? FileManager.default.removeItem(atPath: directory)
            throw error
        }
    }

    /// Starts an emulator on port 0 whose store, certificates and keys are in `directory`, which
    /// stays after ``shutdown()``: a second start in it finds what the first left (a restart).
    public static func start(
        in directory: String, seed: SeedDocument? = nil, configure: (inout EmulatorConfiguration) -> Void = { _ in }
    ) async throws -> TestEmulator {
        try await Self.start(in: directory, ownsDirectory: false, seed: seed, configure: configure)
    }

    private static func start(
        in directory: String, ownsDirectory: Bool, seed: SeedDocument?, configure: (inout EmulatorConfiguration) -> Void
    ) async throws -> TestEmulator {
        // Hundreds of emulators and their clients in one test process: as an ordinary user the
        // default soft limit of 1024 descriptors runs out.
        _ = Self.descriptorLimit
        var configuration = Self.configuration(in: directory)
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
            return TestEmulator(
                emulator: emulator, addresses: addresses, directory: directory, ownsDirectory: ownsDirectory, task: task)
        } catch {
            task.cancel()
            _ = await task.result
            throw error
        }
    }

    /// Every listener on port 0, two event-loop threads, everything in `directory`.
    private static func configuration(in directory: String) -> EmulatorConfiguration {
        var configuration = EmulatorConfiguration()
        configuration.http2Port = 0
        configuration.productionHTTP2Port = 0
        configuration.adminPort = 0
        configuration.devicePort = 0
        configuration.gatewayPort = 0
        configuration.feedbackPort = 0
        configuration.channelsPort = 0
        configuration.webPushPort = 0
        configuration.eventLoopThreads = 2
        // A shared two-core machine can stall a process for many seconds (a CI run saw a dozen
        // connections reset at once): a test that is not about the handshake timeout should not
        // fail on it. The handshake-timeout tests set their own.
        configuration.handshakeTimeout = .seconds(60)
        configuration.dataDirectory = directory + "/data"
        configuration.certificatesDirectory = directory + "/certs"
        configuration.certificatePath = directory + "/certs/server.pem"
        configuration.privateKeyPath = directory + "/certs/server-key.pem"
        configuration.keysDirectory = directory + "/keys"
        return configuration
    }

    /// Raised once per process.
    private static let descriptorLimit: UInt64? = FileDescriptorLimit.raiseToHard()

    private init(
        emulator: Emulator, addresses: ListeningAddresses, directory: String, ownsDirectory: Bool, task: Task<Void, any Error>
    ) {
        self.emulator = emulator
        self.addresses = addresses
        self.directory = directory
        self.ownsDirectory = ownsDirectory
        self.task = task
    }

    /// An emulator no one shut down (a test that threw before its ``shutdown()``) is shut down
    /// when the last reference to it goes.
    deinit {
        guard !self.stopped.withLock({ $0 }) else { return }
        let emulator = self.emulator
        Task { await emulator.shutdown() }
    }

    /// Stops it gracefully, waits until its store is closed, and removes its files (unless its
    /// directory was given to ``start(in:seed:configure:)``).
    public func shutdown() async throws {
        self.stopped.withLock { $0 = true }
        await self.emulator.shutdown()
        try await self.task.value
        self.finished.withLock { $0 = true }
        if self.ownsDirectory { try? FileManager.default.removeItem(atPath: self.directory) }
    }

    /// The world as a seed document: `start(seed:)` of it, written to a file, starts the same world.
    public func export() throws -> JSONValue { try self.emulator.export() }

    /// A request to the admin API with the admin token, through the admin client the cluster uses.
    func admin(_ path: String, method: String = "GET", body: String? = nil) async throws -> AdminAnswer {
        let answer = try await AdminHTTPClient(connectTimeout: .minutes(10), token: self.adminToken).request(
            "\(self.host):\(self.adminPort)", method: method, path: path, body: Array((body ?? "").utf8), timeout: .minutes(10)
        ).get()
        return AdminAnswer(status: answer.status, body: answer.body)
    }
}

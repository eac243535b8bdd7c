import APNsAuth
import APNsCore
import APNsServer
import APNsStore
import ArgumentParser
import Foundation
import Logging
import NIOCore

extension Durability: ExpressibleByArgument {}
extension TokenPolicy: ExpressibleByArgument {}
extension StoragePolicy: ExpressibleByArgument {}
extension APNsEnvironment: ExpressibleByArgument {}
extension AuthMode: ExpressibleByArgument {}

/// `apns-emulator serve`: run every listener until SIGINT or SIGTERM.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run the emulator (the default command). Every option has an environment-variable twin.",
        version: EmulatorVersion.string
    )

    /// The configuration's defaults are the options' defaults: each is written once, there.
    static let defaults = EmulatorConfiguration()

    @Option(help: "Address every listener binds to. (env: \(EnvironmentTwins.variable(for: "--host")))")
    var host = Self.defaults.host

    @Option(
        name: .customLong("http2-port"),
        help: "HTTP/2 provider API port; 0 picks a free one. (env: \(EnvironmentTwins.variable(for: "--http2-port")))")
    var http2Port = Self.defaults.http2Port

    @Option(
        name: .customLong("admin-port"),
        help: "Admin HTTP/1.1 API port; 0 picks a free one. (env: \(EnvironmentTwins.variable(for: "--admin-port")))")
    var adminPort = Self.defaults.adminPort

    @Option(
        name: .customLong("device-port"),
        help:
            "Device listener port (emulated devices); 0 picks a free one. (env: \(EnvironmentTwins.variable(for: "--device-port")))"
    )
    var devicePort = Self.defaults.devicePort

    @Option(
        name: .customLong("gateway-port"),
        help:
            "Legacy binary gateway port (commands 0, 1, 2); 0 picks a free one. (env: \(EnvironmentTwins.variable(for: "--gateway-port")))"
    )
    var gatewayPort = Self.defaults.gatewayPort

    @Option(
        name: .customLong("feedback-port"),
        help: "Feedback service port; 0 picks a free one. (env: \(EnvironmentTwins.variable(for: "--feedback-port")))")
    var feedbackPort = Self.defaults.feedbackPort

    @Option(
        name: .customLong("channels-port"),
        help:
            "Broadcast channel management port (also served on the HTTP/2 port); 0 picks a free one. (env: \(EnvironmentTwins.variable(for: "--channels-port")))"
    )
    var channelsPort = Self.defaults.channelsPort

    @Option(
        name: .customLong("idle-timeout"),
        help:
            "Seconds after which a silent gateway or feedback connection is closed. (env: \(EnvironmentTwins.variable(for: "--idle-timeout")))"
    )
    var idleTimeout = Self.defaults.idleTimeout.seconds

    @Option(
        name: .customLong("handshake-timeout"),
        help:
            "Seconds a connection to a TLS port has to finish its handshake before it is closed. (env: \(EnvironmentTwins.variable(for: "--handshake-timeout")))"
    )
    var handshakeTimeout = Self.defaults.handshakeTimeout.seconds

    @Option(
        name: .customLong("http2-idle-timeout"),
        help:
            "Seconds after which a silent HTTP/2 provider connection gets GOAWAY IdleTimeout and is closed. (env: \(EnvironmentTwins.variable(for: "--http2-idle-timeout")))"
    )
    var http2IdleTimeout = Self.defaults.http2IdleTimeout.seconds

    @Option(
        name: .customLong("device-idle-timeout"),
        help:
            "Seconds after which a silent device connection (one that does not even ping) is closed. (env: \(EnvironmentTwins.variable(for: "--device-idle-timeout")))"
    )
    var deviceIdleTimeout = Self.defaults.deviceIdleTimeout.seconds

    @Option(
        name: .customLong("data-dir"), help: "Directory of the LMDB store. (env: \(EnvironmentTwins.variable(for: "--data-dir")))"
    )
    var dataDirectory = Self.defaults.dataDirectory

    @Option(
        name: .customLong("certs-dir"),
        help:
            "Where the development CA and server certificate live, generated if missing. (env: \(EnvironmentTwins.variable(for: "--certs-dir")))"
    )
    var certificatesDirectory = Self.defaults.certificatesDirectory

    @Option(
        name: .customLong("tls-cert"),
        help:
            "Server certificate chain (PEM). (default: <certs-dir>/server.pem) (env: \(EnvironmentTwins.variable(for: "--tls-cert")))"
    )
    var certificatePath: String?

    @Option(
        name: .customLong("tls-key"),
        help:
            "Server private key (PEM). (default: <certs-dir>/server-key.pem) (env: \(EnvironmentTwins.variable(for: "--tls-key")))"
    )
    var privateKeyPath: String?

    @Option(
        help:
            "durable: a 200 is sent only after the commit is synced to disk; relaxed: periodic sync, for load tests. (env: \(EnvironmentTwins.variable(for: "--durability")))"
    )
    var durability = Self.defaults.durability

    @Option(
        name: .customLong("map-size"),
        help: "LMDB map size in MiB: the most the store holds. (env: \(EnvironmentTwins.variable(for: "--map-size")))")
    var mapSizeMiB = Self.defaults.mapSizeBytes >> 20

    @Option(
        name: .customLong("tokens"),
        help:
            "open: any well-formed token is accepted and its queue waits for a device; registered: unknown tokens get 400 BadDeviceToken, as APNs. (env: \(EnvironmentTwins.variable(for: "--tokens")))"
    )
    var tokenPolicy = Self.defaults.tokenPolicy

    @Option(
        help:
            "This emulator's shard among N behind HAProxy, as K/N (K from 0): the tokens it issues map to it (apns-emulator cluster haproxy-config). (env: \(EnvironmentTwins.variable(for: "--shard")))"
    )
    var shard: Shard?

    @Option(
        name: .customLong("cluster-peers"),
        help:
            "With --shard K/N: every shard's admin address (host:port), in shard order, this one's included. Lists, waits, events, metrics and the web inbox then show every shard; per-token and per-notification routes reach the owning shard; broadcasts reach every shard's subscribers. (env: \(EnvironmentTwins.variable(for: "--cluster-peers")))"
    )
    var clusterPeers: String?

    @Option(
        name: .customLong("storage-policy"),
        help:
            "all: queue every notification (capped per device); latest: keep only the most recent per topic per offline device, as APNs. (env: \(EnvironmentTwins.variable(for: "--storage-policy")))"
    )
    var storagePolicy = Self.defaults.storagePolicy

    @Option(
        name: .customLong("max-queued-per-device"),
        help:
            "Queue cap per device token under --storage-policy all; the oldest are dropped. (env: \(EnvironmentTwins.variable(for: "--max-queued-per-device")))"
    )
    var maximumQueuedPerDevice = Self.defaults.maximumQueuedPerDevice

    @Option(
        name: .customLong("max-expiration"),
        help:
            "Longest a notification is kept, in seconds, whatever its apns-expiration (30 days, as APNs). (env: \(EnvironmentTwins.variable(for: "--max-expiration")))"
    )
    var maximumExpiration = Self.defaults.maximumExpirationSeconds

    @Option(
        name: .customLong("delivered-log-size"),
        help:
            "How many delivered, expired, discarded or dropped notifications are kept for inspection. (env: \(EnvironmentTwins.variable(for: "--delivered-log-size")))"
    )
    var deliveredLogSize = Self.defaults.deliveredLogSize

    @Option(
        name: .customLong("journal-size"),
        help:
            "How many notifications, accepted or rejected, the admin API's journal keeps (the newest). (env: \(EnvironmentTwins.variable(for: "--journal-size")))"
    )
    var journalSize = Self.defaults.journalSize

    @Option(
        help:
            "development (answers carry apns-unique-id) or production. (env: \(EnvironmentTwins.variable(for: "--environment")))")
    var environment = Self.defaults.environment

    @Option(
        help:
            "none: any provider, any topic; strict: every provider authenticates by client certificate or provider token, on every interface. (env: \(EnvironmentTwins.variable(for: "--auth")))"
    )
    var auth = Self.defaults.auth

    @Option(
        name: .customLong("provider-ca"),
        help:
            "A PEM file of CA certificates provider certificates may chain to, besides <certs-dir>/ca.pem; repeatable. (env: \(EnvironmentTwins.variable(for: "--provider-ca")))"
    )
    var providerCAPaths: [String] = []

    @Option(
        name: .customLong("keys"),
        help:
            "Provider-token key store, written by `keys create` and `keys import`. (env: \(EnvironmentTwins.variable(for: "--keys")))"
    )
    var keysDirectory = Self.defaults.keysDirectory

    @Option(
        name: .customLong("token-lifetime"),
        help:
            "Seconds after its iat a provider token is ExpiredProviderToken (one hour, as APNs). (env: \(EnvironmentTwins.variable(for: "--token-lifetime")))"
    )
    var tokenLifetime = Self.defaults.tokenLifetime.components.seconds

    @Option(
        name: .customLong("token-update-interval"),
        help:
            "Seconds a connection must keep a provider token before changing it, else TooManyProviderTokenUpdates (20 minutes, as APNs). (env: \(EnvironmentTwins.variable(for: "--token-update-interval")))"
    )
    var tokenUpdateInterval = Self.defaults.tokenUpdateInterval.components.seconds

    @Option(help: "Event-loop threads. (default: number of cores) (env: \(EnvironmentTwins.variable(for: "--threads")))")
    var threads: Int?

    @Option(
        name: .customLong("writer-spin"),
        help:
            "Microseconds the store writer keeps looking for work before it sleeps, while requests follow closely: less latency one request at a time (300 takes -c1 -m1 from ~255 to ~170 us), a core's time while it looks. Off by default: it takes CPU from clients on the same machine. (env: \(EnvironmentTwins.variable(for: "--writer-spin")))"
    )
    var writerSpin = 0

    @Option(
        name: .customLong("log-level"),
        help: "trace, debug, info, notice, warning, error or critical. (env: \(EnvironmentTwins.variable(for: "--log-level")))")
    var logLevel = "info"

    @Option(
        name: .customLong("config"),
        help:
            "A JSON or YAML file of provider-token keys, devices (with their apps) and fault rules to start with. (env: \(EnvironmentTwins.variable(for: "--config")))"
    )
    var configFile: String?

    @Option(
        name: .customLong("ports-file"),
        help:
            "Write every listener's address to this JSON file once all are bound (for a test that starts the emulator on port 0). (env: \(EnvironmentTwins.variable(for: "--ports-file")))"
    )
    var portsFile: String?

    @Flag(
        help:
            "Keep the store in a new temporary directory, removed on exit: nothing is inherited from an earlier run. (env: \(EnvironmentTwins.variable(for: "--ephemeral")))"
    )
    var ephemeral = false

    @Option(
        name: .customLong("forward-to-simulator"),
        help:
            "Also hand every accepted push to this iOS Simulator (booted, or a device UDID) with `xcrun simctl push` (macOS); the outcome is in the journal and the log. (env: \(EnvironmentTwins.variable(for: "--forward-to-simulator")))"
    )
    var simulatorDevice: String?

    @OptionGroup(title: "Live Activities")
    var activities: ActivityOptions

    @Flag(
        help:
            "No line per push on the console (accepted or rejected); other messages stay. (env: \(EnvironmentTwins.variable(for: "--quiet")))"
    )
    var quiet = false

    func validate() throws {
        let ports = [
            ("--http2-port", self.http2Port), ("--admin-port", self.adminPort), ("--device-port", self.devicePort),
            ("--gateway-port", self.gatewayPort), ("--feedback-port", self.feedbackPort),
            ("--channels-port", self.channelsPort),
        ]
        for (name, port) in ports where !(0...65_535).contains(port) {
            throw ValidationError("\(name) must be between 0 and 65535, not \(port)")
        }
        guard self.idleTimeout > 0, self.idleTimeout.isFinite else {
            throw ValidationError("--idle-timeout must be a positive number of seconds")
        }
        guard self.handshakeTimeout > 0, self.handshakeTimeout <= 3600 else {
            throw ValidationError("--handshake-timeout must be a number of seconds above 0 and at most 3600")
        }
        for (name, seconds) in [
            ("--http2-idle-timeout", self.http2IdleTimeout), ("--device-idle-timeout", self.deviceIdleTimeout),
        ] {
            guard seconds > 0, seconds.isFinite else { throw ValidationError("\(name) must be a positive number of seconds") }
        }
        guard self.tokenLifetime >= 1 else { throw ValidationError("--token-lifetime must be at least 1 second") }
        guard self.tokenUpdateInterval >= 0 else { throw ValidationError("--token-update-interval must not be negative") }
        for path in self.providerCAPaths where !FileManager.default.fileExists(atPath: path) {
            throw ValidationError("--provider-ca: no such file: \(path)")
        }
        try self.validateCluster()
        guard self.mapSizeMiB >= 1 else { throw ValidationError("--map-size must be at least 1 MiB") }
        guard self.maximumQueuedPerDevice >= 1 else { throw ValidationError("--max-queued-per-device must be at least 1") }
        guard self.maximumExpiration >= 1 else { throw ValidationError("--max-expiration must be at least 1 second") }
        guard self.deliveredLogSize >= 0 else { throw ValidationError("--delivered-log-size must not be negative") }
        guard self.journalSize >= 1 else { throw ValidationError("--journal-size must be at least 1") }
        if let threads, threads < 1 { throw ValidationError("--threads must be at least 1") }
        guard (0...10_000).contains(self.writerSpin) else {
            throw ValidationError("--writer-spin must be between 0 and 10000 microseconds")
        }
        guard Logger.Level(rawValue: self.logLevel) != nil else {
            throw ValidationError("--log-level must be one of \(Logger.Level.allCases.map(\.rawValue).joined(separator: ", "))")
        }
    }

    func run() async throws {
        // Every connection is a descriptor: an ordinary user's default of 1024 would cap a load test.
        FileDescriptorLimit.raiseToHard()
        let level = Logger.Level(rawValue: self.logLevel) ?? .info
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        let logger = Logger(label: "apns-emulator")

        var configuration = self.configuration()
        var temporary: String?
        if self.ephemeral {
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("apns-emulator-\(UUID().uuidString)")
                .path
            configuration.dataDirectory = directory
            temporary = directory
        }
        defer { if let temporary { try? FileManager.default.removeItem(atPath: temporary) } }

        let config = try self.configFile.map { try ConfigFile(path: $0) }
        try config?.registerKeys(in: configuration.keysDirectory)
        let emulator = try Emulator(configuration: configuration, logger: logger) { name, url in
            say("apns-emulator: \(name) on \(url)")
        }
        say(
            "apns-emulator: \(configuration.durability) store in \(configuration.dataDirectory), \(configuration.environment) environment; trust \(configuration.certificatesDirectory)/ca.pem"
        )
        if configuration.auth == .strict {
            say(
                "apns-emulator: strict provider authentication: client certificates from \(configuration.developmentCAPath)\(configuration.providerCAPaths.map { " or " + $0 }.joined()), provider-token keys in \(configuration.keysDirectory) (\(emulator.providerKeyCount) now)"
            )
        }
        let running = Task { try await emulator.run() }
        if config != nil || self.portsFile != nil {
            do {
                let addresses = try await emulator.listening()
                // What the config seeds is there before the ports file says the emulator is up.
                try await config?.seed(emulator)
                if let portsFile = self.portsFile { try Self.writePorts(addresses, host: configuration.host, to: portsFile) }
            } catch {
                await emulator.shutdown()
                _ = await running.result
                throw error
            }
        }
        try await running.value
    }

    /// The emulator's configuration, as the flags (and their environment twins) give it.
    func configuration() -> EmulatorConfiguration {
        var configuration = EmulatorConfiguration()
        configuration.host = self.host
        configuration.http2Port = self.http2Port
        configuration.adminPort = self.adminPort
        configuration.devicePort = self.devicePort
        configuration.gatewayPort = self.gatewayPort
        configuration.feedbackPort = self.feedbackPort
        configuration.channelsPort = self.channelsPort
        configuration.idleTimeout = .milliseconds(Int64(self.idleTimeout * 1000))
        configuration.handshakeTimeout = .milliseconds(Int64(self.handshakeTimeout * 1000))
        configuration.http2IdleTimeout = .milliseconds(Int64(self.http2IdleTimeout * 1000))
        configuration.deviceIdleTimeout = .milliseconds(Int64(self.deviceIdleTimeout * 1000))
        configuration.tokenPolicy = self.tokenPolicy
        configuration.shard = self.shard
        configuration.clusterPeers = self.peers
        configuration.storagePolicy = self.storagePolicy
        configuration.maximumQueuedPerDevice = self.maximumQueuedPerDevice
        configuration.maximumExpirationSeconds = self.maximumExpiration
        configuration.deliveredLogSize = self.deliveredLogSize
        configuration.journalSize = self.journalSize
        configuration.dataDirectory = self.dataDirectory
        configuration.certificatesDirectory = self.certificatesDirectory
        configuration.certificatePath = self.certificatePath ?? self.certificatesDirectory + "/server.pem"
        configuration.privateKeyPath = self.privateKeyPath ?? self.certificatesDirectory + "/server-key.pem"
        configuration.durability = self.durability
        configuration.mapSizeBytes = self.mapSizeMiB << 20
        configuration.environment = self.environment
        configuration.eventLoopThreads = self.threads ?? System.coreCount
        configuration.writerSpin = .microseconds(self.writerSpin)
        configuration.logPushes = !self.quiet
        configuration.activityLimits = self.activities.limits
        configuration.simulatorDevice = self.simulatorDevice
        configuration.auth = self.auth
        configuration.providerCAPaths = self.providerCAPaths
        configuration.keysDirectory = self.keysDirectory
        configuration.tokenLifetime = .seconds(self.tokenLifetime)
        configuration.tokenUpdateInterval = .seconds(self.tokenUpdateInterval)
        return configuration
    }

    /// `{"host", "http2", "admin", "device", "gateway", "feedback", "channels"}`, written whole (to a temporary
    /// name, then renamed) so a reader never sees half of it.
    static func writePorts(_ addresses: ListeningAddresses, host: String, to path: String) throws {
        let json =
            #"{"host": "\#(host)", "http2": \#(addresses.port(.http2)), "admin": \#(addresses.port(.admin)), "device": \#(addresses.port(.device)), "gateway": \#(addresses.port(.gateway)), "feedback": \#(addresses.port(.feedback)), "channels": \#(addresses.port(.channels))}"#
        let partial = path + ".partial"
        try Data((json + "\n").utf8).write(to: URL(fileURLWithPath: partial))
        guard rename(partial, path) == 0 else {
            throw ValidationError("--ports-file: cannot write \(path): \(String(cString: strerror(errno)))")
        }
    }
}

extension Duration {
    /// The duration in seconds, fractions kept (an option's default).
    var seconds: Double { Double(self.components.seconds) + Double(self.components.attoseconds) / 1e18 }
}

extension ServeCommand {
    /// `--cluster-peers` as a list.
    var peers: [String] {
        (self.clusterPeers ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    func validateCluster() throws {
        guard self.clusterPeers != nil else { return }
        guard let shard = self.shard else {
            throw ValidationError("--cluster-peers needs --shard K/N: the peers are the other shards")
        }
        guard self.peers.count == shard.count else {
            throw ValidationError(
                "--cluster-peers names \(self.peers.count) addresses; --shard \(shard) needs one per shard, in shard order, this one's included"
            )
        }
        for peer in self.peers where peer.split(separator: ":").count != 2 || Int(peer.split(separator: ":").last ?? "") == nil {
            throw ValidationError("--cluster-peers: \(peer) is not host:port")
        }
    }
}

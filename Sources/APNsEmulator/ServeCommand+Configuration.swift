import APNsAuth
import APNsCore
import APNsServer
import APNsStore
import ArgumentParser
import Foundation
import Logging
import NIOCore
import Synchronization

/// `serve`'s checks of its options, and the configuration, ports file and cluster settings they
/// make.
extension ServeCommand {
    func validate() throws {
        let ports = [
            ("--http2-port", self.addresses.http2Port), ("--production-http2-port", self.addresses.productionHTTP2Port),
            ("--admin-port", self.addresses.adminPort),
            ("--device-port", self.addresses.devicePort),
            ("--gateway-port", self.addresses.gatewayPort), ("--feedback-port", self.addresses.feedbackPort),
            ("--channels-port", self.addresses.channelsPort), ("--h2c-port", self.moreDoors.h2cPort ?? 0),
            ("--web-push-port", self.moreDoors.webPushPort),
        ]
        for (name, port) in ports where !(0...65_535).contains(port) {
            throw ValidationError("\(name) must be between 0 and 65535, not \(port)")
        }
        if self.seedFile != nil && self.configFile != nil {
            throw ValidationError("--seed and --config are the same option: give one seed file")
        }
        guard self.idleTimeout.seconds > 0 else {
            throw ValidationError("--idle-timeout must be longer than 0 (1h, 90m, 10s, or seconds)")
        }
        guard self.handshakeTimeout.seconds > 0, self.handshakeTimeout.seconds <= 3600 else {
            throw ValidationError("--handshake-timeout must be above 0 and at most 1h (10s, or seconds)")
        }
        for (name, duration) in [
            ("--http2-idle-timeout", self.http2IdleTimeout), ("--device-idle-timeout", self.deviceIdleTimeout),
        ] {
            guard duration.seconds > 0 else { throw ValidationError("\(name) must be longer than 0 (1h, 90m, 10s, or seconds)") }
        }
        guard self.store.tokenLifetime.seconds >= 1 else { throw ValidationError("--token-lifetime must be at least 1s") }
        for path in self.store.providerCAPaths where !FileManager.default.fileExists(atPath: path) {
            throw ValidationError("--provider-ca: no such file: \(path)")
        }
        try self.validateCluster()
        if self.adminAccess.requireDeviceToken && self.adminAccess.token == nil && AdminAccess.isLoopback(self.addresses.host) {
            throw ValidationError(
                "--require-device-token needs an admin token for devices to bring: give --admin-token, or a --host beyond loopback (where serve makes one)"
            )
        }
        guard self.store.mapSizeMiB >= 1 else { throw ValidationError("--map-size must be at least 1 MiB") }
        guard self.store.maximumQueuedPerDevice >= 1 else { throw ValidationError("--max-queued-per-device must be at least 1") }
        guard self.store.maximumExpiration.seconds >= 1 else { throw ValidationError("--max-expiration must be at least 1s") }
        guard (self.deliveredLogSize ?? 1) >= 1 else { throw ValidationError("--delivered-log-size must be at least 1") }
        _ = try self.retention()
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

        let seedOption = self.seedFile != nil ? "--seed" : "--config"
        let seed = try (self.seedFile ?? self.configFile).map { try SeedDocument.read($0, option: seedOption) }
        try seed?.prepare(&configuration)
        // Each listener's line waits until every listener is bound: a port clash prints its one
        // error, not the lines of the listeners that did open.
        let announced = Mutex<[(name: String, url: String)]>([])
        // The emulator makes a development CA when there is none: said in the line below, as the others are.
        let generating = !FileManager.default.fileExists(atPath: configuration.developmentCAPath)
        let emulator = try Emulator(configuration: configuration, logger: logger) { name, url in
            announced.withLock { $0.append((name, url)) }
        }
        let madeCA = generating && FileManager.default.fileExists(atPath: configuration.developmentCAPath)
        Self.announceStore(configuration, madeCA: madeCA)
        if configuration.auth == .strict {
            say(
                "apns-emulator: strict provider authentication: client certificates from \(configuration.developmentCAPath)\(configuration.providerCAPaths.map { " or " + $0 }.joined()), provider-token keys in \(configuration.keysDirectory) (\(emulator.providerKeyCount) now)"
            )
        }
        // What the seed makes is there before the first listener opens.
        if let seed, let path = self.seedFile ?? self.configFile {
            try await Self.apply(seed, origin: "\(seedOption) \(path)", to: emulator)
        }
        let running = Task { try await emulator.run(beforeClosing: self.exportAtExit(emulator, logger: logger)) }
        if self.exitOnStdinClose { StandardInputWatch.start { await emulator.shutdown() } }
        let addresses: ListeningAddresses
        do {
            addresses = try await emulator.listening()
            Self.announce(announced.withLock { $0 }, seed: seed.map { ($0, self.seedFile ?? self.configFile ?? "") })
            try self.listening(addresses, emulator: emulator, given: configuration, logger: logger)
        } catch {
            await emulator.shutdown()
            _ = await running.result
            throw error
        }
        defer { AdminTokenFile.remove(admin: addresses.port(.admin), device: addresses.port(.device)) }
        try await running.value
    }

    /// Applies the seed before the first listener opens. The store opened with the emulator: a
    /// seed that fails closes it before the error exits, as a run that ends does.
    static func apply(_ seed: SeedDocument, origin: String, to emulator: Emulator) async throws {
        do {
            try await emulator.apply(seed, origin: origin)
        } catch {
            emulator.store.close()
            throw error
        }
    }

    /// Once every listener is bound: the admin token said (and left for the commands beside it),
    /// what strangers may do, the ports file.
    func listening(
        _ addresses: ListeningAddresses, emulator: Emulator, given configuration: EmulatorConfiguration, logger: Logger
    ) throws {
        let token = emulator.configuration.adminToken
        Self.announceToken(token, made: configuration.adminToken == nil, host: configuration.host)
        Self.announceExposure(configuration)
        if configuration.tokenLifetime < configuration.tokenUpdateInterval {
            say(
                "apns-emulator: warning: --token-lifetime (\(configuration.tokenLifetime.seconds) s) is shorter than --token-update-interval (\(configuration.tokenUpdateInterval.seconds) s): a provider replaces an expired token at once (never TooManyProviderTokenUpdates), but one that signs new tokens early is refused until the interval passes"
            )
        }
        if let warning = AdminTokenFile.leave(token, admin: addresses.port(.admin), device: addresses.port(.device)) {
            logger.warning("the admin token is not where other commands look", metadata: ["admin.warning": "\(warning)"])
        }
        if let portsFile = self.portsFile {
            try Self.writePorts(addresses, host: configuration.host, adminToken: token, to: portsFile)
        }
    }

    /// What runs as the emulator stops, before its store closes: the export `--export-on-exit` asks for.
    func exportAtExit(_ emulator: Emulator, logger: Logger) -> @Sendable () -> Void {
        guard let file = self.exportOnExit else { return {} }
        return {
            do {
                try SeedDocument.write(try emulator.export(), to: file)
                say("apns-emulator: exported the world to \(file)")
            } catch {
                logger.error(
                    "could not export the world at exit", metadata: ["export.file": "\(file)", "export.error": "\(error)"])
            }
        }
    }

    /// The emulator's configuration, as the flags (and their environment twins) give it.
    func configuration() -> EmulatorConfiguration {
        var configuration = EmulatorConfiguration()
        configuration.host = self.addresses.host
        configuration.http2Port = self.addresses.http2Port
        configuration.productionHTTP2Port = self.addresses.productionHTTP2Port
        configuration.adminPort = self.addresses.adminPort
        configuration.devicePort = self.addresses.devicePort
        configuration.gatewayPort = self.addresses.gatewayPort
        configuration.feedbackPort = self.addresses.feedbackPort
        configuration.channelsPort = self.addresses.channelsPort
        configuration.h2cPort = self.moreDoors.h2cPort
        configuration.webPushPort = self.moreDoors.webPushPort
        configuration.idleTimeout = .milliseconds(self.idleTimeout.milliseconds)
        configuration.handshakeTimeout = .milliseconds(self.handshakeTimeout.milliseconds)
        configuration.http2IdleTimeout = .milliseconds(self.http2IdleTimeout.milliseconds)
        configuration.deviceIdleTimeout = .milliseconds(self.deviceIdleTimeout.milliseconds)
        configuration.tokenPolicy = self.tokenPolicy
        configuration.shard = self.shard
        configuration.clusterPeers = self.peers
        configuration.storagePolicy = self.store.storagePolicy
        configuration.maximumQueuedPerDevice = self.store.maximumQueuedPerDevice
        configuration.maximumExpirationSeconds = Int64(self.store.maximumExpiration.seconds)
        // validate() has read it already.
        configuration.retention = (try? self.retention()) ?? .standard
        configuration.journalSize = self.journalSize
        configuration.dataDirectory = self.store.dataDirectory
        configuration.certificatesDirectory = self.certificatesDirectory
        configuration.certificatePath = self.certificatePath ?? self.certificatesDirectory + "/server.pem"
        configuration.privateKeyPath = self.privateKeyPath ?? self.certificatesDirectory + "/server-key.pem"
        configuration.durability = self.store.durability
        configuration.mapSizeBytes = self.store.mapSizeMiB << 20
        configuration.environment = self.store.environment
        configuration.eventLoopThreads = self.threads ?? System.coreCount
        configuration.writerSpin = .microseconds(self.writerSpin)
        configuration.logPushes = !self.quiet
        configuration.providerExam = self.providerExam
        configuration.activityLimits = self.activities.limits
        configuration.simulatorDevice = self.simulatorDevice
        configuration.auth = self.store.auth
        configuration.providerCAPaths = self.store.providerCAPaths
        configuration.keysDirectory = self.store.keysDirectory
        configuration.tokenLifetime = .milliseconds(self.store.tokenLifetime.milliseconds)
        configuration.tokenUpdateInterval = .milliseconds(self.store.tokenUpdateInterval.milliseconds)
        configuration.adminToken = self.adminAccess.token
        configuration.adminAllowedOrigins = self.adminAccess.origins
        configuration.adminAllowedHosts = self.adminAccess.hosts
        configuration.devicesNeedAdminToken = self.adminAccess.requireDeviceToken
        return configuration
    }

    /// `{"host", "http2", "admin", "device", "gateway", "feedback", "channels", "h2c", "webPush"}` (`h2c` null
    /// without `--h2c-port`), written whole (to a temporary name, then renamed) so a reader never
    /// sees half of it.
    static func writePorts(_ addresses: ListeningAddresses, host: String, adminToken: String?, to path: String) throws {
        var writer = JSONWriter()
        writer.object { members in
            members.member("host") { $0.string(host) }
            for (name, front) in [
                ("http2", ListeningAddresses.Front.http2), ("admin", .admin), ("device", .device), ("gateway", .gateway),
                ("feedback", .feedback), ("channels", .channels),
            ] {
                members.member(name) { $0.number(addresses.port(front)) }
            }
            members.member("h2c") { addresses.isOpen(.h2c) ? $0.number(addresses.port(.h2c)) : $0.raw("null") }
            members.member("webPush") { $0.number(addresses.port(.webPush)) }
            members.member("productionHttp2") { $0.number(addresses.port(.http2Production)) }
            members.member("adminToken") { $0.optionalString(adminToken) }
        }
        do {
            // Private to this user: it holds the admin token.
            try PrivateFiles.write(writer.bytes + [0x0A], to: path)
        } catch {
            throw ValidationError("--ports-file: \(error)")
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

extension ServeCommand {
    /// `--retain` read, with `--delivered-log-size` (its count under an earlier name) applied first.
    func retention() throws -> Retention {
        var defaults = Retention.standard
        if let count = self.deliveredLogSize { defaults.count = count }
        guard let retain = self.retain else { return defaults }
        do {
            return try Retention(parsing: retain, defaults: defaults)
        } catch {
            throw ValidationError(error.description)
        }
    }
}

import APNsAuth
import APNsCore
import APNsServer
import APNsStore
import ArgumentParser
import Foundation
import Logging
import NIOCore

/// `serve`'s checks of its options, and the configuration, ports file and cluster settings they
/// make.
extension ServeCommand {
    func validate() throws {
        let ports = [
            ("--http2-port", self.http2Port), ("--admin-port", self.adminPort), ("--device-port", self.devicePort),
            ("--gateway-port", self.gatewayPort), ("--feedback-port", self.feedbackPort),
            ("--channels-port", self.channelsPort), ("--h2c-port", self.moreDoors.h2cPort ?? 0),
            ("--web-push-port", self.moreDoors.webPushPort),
        ]
        for (name, port) in ports where !(0...65_535).contains(port) {
            throw ValidationError("\(name) must be between 0 and 65535, not \(port)")
        }
        if self.seedFile != nil && self.configFile != nil {
            throw ValidationError("--seed and --config are the same option: give one seed file")
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

        let seedOption = self.seedFile != nil ? "--seed" : "--config"
        let seed = try (self.seedFile ?? self.configFile).map { try SeedDocument.read($0, option: seedOption) }
        try seed?.prepare(&configuration)
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
        // What the seed makes is there before the first listener opens.
        if let seed, let path = self.seedFile ?? self.configFile {
            try await emulator.apply(seed, origin: "\(seedOption) \(path)")
        }
        let running = Task { try await emulator.run(beforeClosing: self.exportAtExit(emulator, logger: logger)) }
        if self.exitOnStdinClose { StandardInputWatch.start { await emulator.shutdown() } }
        if let portsFile = self.portsFile {
            do {
                let addresses = try await emulator.listening()
                try Self.writePorts(addresses, host: configuration.host, to: portsFile)
            } catch {
                await emulator.shutdown()
                _ = await running.result
                throw error
            }
        }
        try await running.value
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
        configuration.host = self.host
        configuration.http2Port = self.http2Port
        configuration.adminPort = self.adminPort
        configuration.devicePort = self.devicePort
        configuration.gatewayPort = self.gatewayPort
        configuration.feedbackPort = self.feedbackPort
        configuration.channelsPort = self.channelsPort
        configuration.h2cPort = self.moreDoors.h2cPort
        configuration.webPushPort = self.moreDoors.webPushPort
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

    /// `{"host", "http2", "admin", "device", "gateway", "feedback", "channels", "h2c", "webPush"}` (`h2c` null
    /// without `--h2c-port`), written whole (to a temporary name, then renamed) so a reader never
    /// sees half of it.
    static func writePorts(_ addresses: ListeningAddresses, host: String, to path: String) throws {
        let h2c = addresses.isOpen(.h2c) ? String(addresses.port(.h2c)) : "null"
        let json =
            #"{"host": "\#(host)", "http2": \#(addresses.port(.http2)), "admin": \#(addresses.port(.admin)), "device": \#(addresses.port(.device)), "gateway": \#(addresses.port(.gateway)), "feedback": \#(addresses.port(.feedback)), "channels": \#(addresses.port(.channels)), "h2c": \#(h2c), "webPush": \#(addresses.port(.webPush))}"#
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

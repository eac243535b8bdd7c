import APNsCore
import APNsStore
import Foundation
import Logging
import NIOCore
import NIOPosix
import NIOSSL
import ServiceLifecycle
import UnixSignals

/// The whole emulator: store, relay and listeners, run as one ServiceGroup.
public final class Emulator: Sendable {
    public let configuration: EmulatorConfiguration
    public let store: NotificationStore
    private let group: MultiThreadedEventLoopGroup
    private let serviceGroup: ServiceGroup
    private let readiness = ReadinessGate()
    /// The relay between the front doors, the store and connected devices.
    public let relay: Relay
    /// The journal, fault rules and metrics behind the admin API.
    public let inspection: Inspection
    private let verifier: ProviderTokenVerifier
    private let logger: Logger

    /// How many provider-token keys the key store holds now.
    public var providerKeyCount: Int { self.verifier.keys.count }

    /// Prepares everything (certificates, store, TLS) without opening a socket.
    ///
    /// - Parameters:
    ///   - signals: signals that start a graceful shutdown (none for tests).
    ///   - onListening: told each listener's name and URL once it is bound.
    public init(
        configuration: EmulatorConfiguration,
        logger: Logger,
        signals: [UnixSignal] = [.sigterm, .sigint],
        onListening: @escaping @Sendable (_ name: String, _ url: String) -> Void = { _, _ in }
    ) throws {
        self.configuration = configuration
        self.logger = logger
        try Self.ensureCertificates(configuration, logger: logger)
        let providerRoots = try Self.providerTrustRoots(configuration)
        let strict = configuration.auth == .strict
        let serverContext = { (protocols: [String], clientCertificates: TLSFiles.ClientCertificates) in
            try TLSFiles.serverContext(
                certificatePath: configuration.certificatePath,
                privateKeyPath: configuration.privateKeyPath,
                protocols: protocols,
                clientCertificates: clientCertificates
            )
        }
        let sslContext = try serverContext(["h2"], strict ? .optional(trustRoots: providerRoots) : .ignored)
        let verifier = ProviderTokenVerifier(keys: try ProviderKeyStore(directory: configuration.keysDirectory))
        self.verifier = verifier
        let inspection = Inspection(journalCapacity: configuration.journalSize, logger: logger)
        self.inspection = inspection
        self.store = try NotificationStore(configuration: configuration.storeConfiguration, logger: logger) { commit in
            inspection.committed(commit)
        }
        inspection.journal.seed(
            queued: try self.store.allQueued(limit: configuration.journalSize),
            logged: try self.store.logged(limit: configuration.journalSize)
        )
        self.group = MultiThreadedEventLoopGroup(numberOfThreads: max(1, configuration.eventLoopThreads))
        let relay = Relay(store: self.store, hub: DeliveryHub(), group: self.group)
        self.relay = relay
        let readiness = self.readiness

        let http2 = TLSListener.http2Provider(
            Listener(name: "http2", host: configuration.host, port: configuration.http2Port, group: self.group, logger: logger),
            sslContext: sslContext,
            context: ProviderContext(
                relay: relay,
                auth: configuration.auth,
                authRules: configuration.authRules,
                verifier: verifier,
                validator: PushValidator(),
                inspection: inspection,
                environment: configuration.environment,
                shutdownGrace: TimeAmount(configuration.shutdownGrace),
                clock: configuration.clock,
                logger: logger
            ),
            onBound: { address in
                readiness.bound(http2: address)
                onListening("HTTP/2 provider API", Self.url(scheme: "https", address))
            }
        )
        let admin = AdminListener(
            listener: Listener(name: "admin", host: configuration.host, port: configuration.adminPort, group: self.group, logger: logger),
            router: AdminRouter(relay: relay, inspection: inspection, readiness: readiness),
            onBound: { address in
                readiness.bound(admin: address)
                onListening("admin API", Self.url(scheme: "http", address))
            }
        )
        // Devices, the gateway and feedback speak plain TLS, without ALPN.
        let plainTLS = try serverContext([], .ignored)
        let binaryTLS = try serverContext([], strict ? .required(trustRoots: providerRoots) : .ignored)
        let device = TLSListener.device(
            Listener(name: "device", host: configuration.host, port: configuration.devicePort, group: self.group, logger: logger),
            sslContext: plainTLS,
            relay: relay,
            onBound: { address in
                readiness.bound(device: address)
                onListening("device listener", Self.url(scheme: "tls", address))
            }
        )
        let idleTimeout = TimeAmount(configuration.idleTimeout)
        let gateway = TLSListener.binaryGateway(
            Listener(name: "gateway", host: configuration.host, port: configuration.gatewayPort, group: self.group, logger: logger),
            sslContext: binaryTLS,
            context: GatewayContext(
                relay: relay,
                validator: BinaryPushValidator(),
                inspection: inspection,
                auth: configuration.auth,
                environment: configuration.environment,
                checksTokens: configuration.tokenPolicy == .registered,
                clock: configuration.clock,
                logger: logger
            ),
            idleTimeout: idleTimeout,
            onBound: { address in
                readiness.bound(gateway: address)
                onListening("binary gateway", Self.url(scheme: "tls", address))
            }
        )
        let feedback = TLSListener.feedback(
            Listener(name: "feedback", host: configuration.host, port: configuration.feedbackPort, group: self.group, logger: logger),
            sslContext: binaryTLS,
            relay: relay,
            auth: configuration.auth,
            environment: configuration.environment,
            idleTimeout: idleTimeout,
            onBound: { address in
                readiness.bound(feedback: address)
                onListening("feedback service", Self.url(scheme: "tls", address))
            }
        )
        let services: [any Service] = [StoreService(store: self.store), http2, gateway, feedback, device, admin]
        self.serviceGroup = ServiceGroup(
            configuration: ServiceGroupConfiguration(
                services: services.map {
                    .init(service: $0, successTerminationBehavior: .gracefullyShutdownGroup, failureTerminationBehavior: .gracefullyShutdownGroup)
                },
                gracefulShutdownSignals: signals,
                logger: logger
            )
        )
    }

    /// Serves until a shutdown signal or ``shutdown()``; returns after every accepted request
    /// has been answered and the store is closed.
    public func run() async throws {
        do {
            try await self.serviceGroup.run()
        } catch {
            self.readiness.failed(error)
            self.store.close()
            try await self.group.shutdownGracefully()
            throw error
        }
        self.readiness.failed(ServerError(name: "emulator", message: "stopped"))
        try await self.group.shutdownGracefully()
    }

    /// Where the listeners are, once they are all bound.
    public func listening() async throws -> ListeningAddresses {
        try await self.readiness.wait()
    }

    /// Starts a graceful shutdown, as SIGTERM would.
    public func shutdown() async {
        await self.serviceGroup.triggerGracefulShutdown()
    }

    /// Generates development certificates when the configured ones are missing and are the
    /// ones in the certificates directory; a missing file given explicitly is an error.
    static func ensureCertificates(_ configuration: EmulatorConfiguration, logger: Logger) throws {
        let manager = FileManager.default
        let certificateExists = manager.fileExists(atPath: configuration.certificatePath)
        let keyExists = manager.fileExists(atPath: configuration.privateKeyPath)
        if certificateExists && keyExists { return }
        let files = DevelopmentCertificates.Files(directory: configuration.certificatesDirectory)
        guard configuration.certificatePath == files.serverCertificate, configuration.privateKeyPath == files.serverPrivateKey else {
            let missing = certificateExists ? configuration.privateKeyPath : configuration.certificatePath
            throw ServerError(name: "tls", message: "no such file: \(missing)")
        }
        try DevelopmentCertificates.generate(into: configuration.certificatesDirectory)
        logger.info(
            "generated a development CA and a localhost server certificate; trust the CA to connect without warnings",
            metadata: ["tls.ca": "\(files.caCertificate)", "tls.certificate": "\(files.serverCertificate)"]
        )
    }

    /// The CAs provider certificates may chain to: the development CA, when there is one, and
    /// every `--provider-ca`.
    static func providerTrustRoots(_ configuration: EmulatorConfiguration) throws -> [NIOSSLCertificate] {
        var paths = configuration.providerCAPaths
        if FileManager.default.fileExists(atPath: configuration.developmentCAPath) {
            paths.insert(configuration.developmentCAPath, at: 0)
        }
        return try TLSFiles.trustRoots(paths)
    }

    static func url(scheme: String, _ address: SocketAddress) -> String {
        let host = address.ipAddress ?? "localhost"
        let shown = host.contains(":") ? "[\(host)]" : host
        return "\(scheme)://\(shown):\(address.port ?? 0)"
    }
}

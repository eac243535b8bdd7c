import APNsAuth
import APNsCore
import APNsInspection
import Logging
import NIOCore
import NIOPosix
import ServiceLifecycle

/// What the listeners are built from, and one function per listener: the emulator's assembly.
struct EmulatorParts {
    let configuration: EmulatorConfiguration
    let group: MultiThreadedEventLoopGroup
    let relay: Relay
    /// The store's reads.
    let reader: StoreReader
    let hub: DeliveryHub
    let phone: Phone
    let channels: BroadcastChannels
    let power: DevicePowerBook
    /// The ids no connection numbers (the intake's web pushes).
    let ids: EmulatorIDs
    /// The other shards, when this emulator is one of several (`--cluster-peers`).
    let cluster: Cluster?
    let inspection: Inspection
    let clock: EmulatorClock
    let verifier: ProviderTokenVerifier
    let readiness: ReadinessGate
    let tls: EmulatorTLS
    let logger: Logger
    let onListening: @Sendable (_ name: String, _ url: String) -> Void

    /// Every listener, each a service.
    func listeners() -> [any Service] {
        let always: [any Service] = [
            self.http2(), self.channelsListener(), self.gateway(), self.feedback(), self.device(), self.webPush(), self.admin(),
        ]
        return always + ([self.h2c(), self.http2Production()] as [(any Service)?]).compactMap { $0 }
    }

    private func listener(_ name: String, port: Int, idle: Duration? = nil) -> Listener {
        let handshake = TimeAmount(self.configuration.handshakeTimeout)
        return Listener(
            name: name, host: self.configuration.host, port: port, group: self.group, logger: self.logger,
            handshakeTimeout: handshake, idleTimeout: idle.map { TimeAmount($0) }
        )
    }

    /// Tells readiness and the console where a listener is bound.
    private func bound(_ front: ListeningAddresses.Front, _ title: String, scheme: String) -> @Sendable (SocketAddress) -> Void {
        let (readiness, onListening) = (self.readiness, self.onListening)
        return { address in
            // The console hears of it first: readiness may open with this listener, the last.
            onListening(title, Self.url(scheme: scheme, address))
            readiness.bound(front, at: address)
        }
    }

    private func http2() -> TLSListener {
        TLSListener.http2Provider(
            self.listener("http2", port: self.configuration.http2Port, idle: self.configuration.http2IdleTimeout),
            sslContext: self.tls.http2,
            context: self.providerContext(),
            onBound: self.bound(.http2, "HTTP/2 provider API", scheme: "https")
        )
    }

    /// What start-up calls the production endpoint's listener.
    static let productionTitle = "HTTP/2 provider API, production (api.push.apple.com)"

    /// The production endpoint, as `api.push.apple.com` is Apple's, when a port is set for it.
    private func http2Production() -> TLSListener? {
        guard let port = self.configuration.productionHTTP2Port else { return nil }
        return TLSListener.http2Provider(
            self.listener("http2-production", port: port, idle: self.configuration.http2IdleTimeout),
            sslContext: self.tls.http2,
            context: self.providerContext(environment: .production),
            onBound: self.bound(.http2Production, Self.productionTitle, scheme: "https")
        )
    }

    /// The provider API over cleartext HTTP/2, when `--h2c-port` asks for it.
    private func h2c() -> CleartextHTTP2Listener? {
        guard let port = self.configuration.h2cPort else { return nil }
        return CleartextHTTP2Listener(
            listener: self.listener("h2c", port: port, idle: self.configuration.http2IdleTimeout),
            context: self.providerContext(),
            onBound: self.bound(.h2c, "HTTP/2 provider API without TLS (h2c)", scheme: "http"))
    }

    /// The Web Push service, on a port of its own.
    private func webPush() -> TLSListener {
        let configuration = self.configuration
        let intake = self.intake()
        return WebPushListener.make(
            self.listener("webpush", port: configuration.webPushPort, idle: configuration.http2IdleTimeout),
            sslContext: self.tls.webPush, intake: intake, shutdownGrace: TimeAmount(configuration.shutdownGrace),
            onBound: { [phone, bound = self.bound(.webPush, "Web Push service", scheme: "https")] address in
                phone.webApps.webPushAddress.withLock { $0 = address }
                bound(address)
            })
    }

    /// Channel management on a port of its own, as Apple serves it on a host of its own.
    private func channelsListener() -> TLSListener {
        TLSListener.http2Provider(
            self.listener("channels", port: self.configuration.channelsPort, idle: self.configuration.http2IdleTimeout),
            sslContext: self.tls.http2,
            context: self.channelsContext(),
            onBound: self.bound(.channels, "channel management", scheme: "https")
        )
    }

    /// What a door that serves channel management only gives its HTTP/2 connections.
    private func channelsContext() -> ProviderContext {
        var context = self.providerContext()
        context.channelsOnly = true
        return context
    }

    /// The one intake every door hands its pushes to; `doors` says where requests belong.
    /// `environment`: the one its requests are for when they name none (the endpoint's).
    func intake(doors: FrontDoors? = nil, environment: APNsEnvironment? = nil) -> PushIntake {
        PushIntake(
            PushIntake.Parts(
                relay: self.relay, webApps: self.phone.webApps, activities: self.phone.activities, channels: self.channels,
                cluster: self.cluster, inspection: self.inspection, ids: self.ids,
                environment: environment ?? self.configuration.environment, clock: { [clock] in clock.nowMillis },
                logger: self.logger),
            doors: doors)
    }

    /// What a provider API listener gives its connections; `environment`: its endpoint's, when
    /// not `--environment`'s.
    func providerContext(environment: APNsEnvironment? = nil) -> ProviderContext {
        let configuration = self.configuration
        let environment = environment ?? configuration.environment
        var rules = configuration.authRules
        rules.environment = environment
        return ProviderContext(
            auth: configuration.auth,
            authRules: rules,
            verifier: self.verifier,
            inspection: self.inspection,
            environment: environment,
            shutdownGrace: TimeAmount(configuration.shutdownGrace),
            clock: { [clock] in clock.nowMillis },
            realClock: configuration.clock,
            doors: FrontDoors(readiness: self.readiness),
            logger: self.logger,
            intake: self.intake(doors: FrontDoors(readiness: self.readiness), environment: environment)
        )
    }

    private func gateway() -> TLSListener {
        let configuration = self.configuration
        let context = GatewayContext(
            inspection: self.inspection,
            auth: configuration.auth,
            environment: configuration.environment,
            clock: { [clock] in clock.nowMillis },
            doors: FrontDoors(readiness: self.readiness),
            logger: self.logger,
            intake: self.intake()
        )
        return TLSListener.binaryGateway(
            self.listener("gateway", port: configuration.gatewayPort, idle: configuration.idleTimeout),
            sslContext: self.tls.binary,
            context: context,
            channels: self.channelsContext(),
            onBound: self.bound(.gateway, "binary gateway", scheme: "tls")
        )
    }

    private func feedback() -> TLSListener {
        TLSListener.feedback(
            self.listener("feedback", port: self.configuration.feedbackPort, idle: self.configuration.idleTimeout),
            sslContext: self.tls.binary,
            relay: self.relay, reader: self.reader,
            channels: self.channelsContext(),
            onBound: self.bound(.feedback, "feedback service", scheme: "tls")
        )
    }

    private func device() -> TLSListener {
        TLSListener.device(
            self.listener("device", port: self.configuration.devicePort, idle: self.configuration.deviceIdleTimeout),
            sslContext: self.tls.device,
            relay: self.relay, reader: self.reader, phone: self.phone, hub: self.hub, power: self.power,
            access: self.configuration.devicesNeedAdminToken ? self.configuration.adminAccess : AdminAccess(),
            refusal: ConnectionRefusal(inspection: self.inspection, clock: { [clock] in clock.nowMillis }, logger: self.logger),
            doors: FrontDoors(readiness: self.readiness),
            onBound: self.bound(.device, "device listener", scheme: "tls")
        )
    }

    private func admin() -> AdminListener {
        var router = AdminRouter(
            relay: self.relay, reader: self.reader, phone: self.phone, channels: self.channels, hub: self.hub, power: self.power,
            cluster: self.cluster, inspection: self.inspection, readiness: self.readiness, clock: self.clock,
            caPath: self.configuration.developmentCAPath,
            provider: self.providerContext(),
            world: WorldExport(self.configuration, self))
        router.asksForToken = self.configuration.adminAccess.token != nil
        return AdminListener(
            listener: self.listener("admin", port: self.configuration.adminPort),
            router: router,
            access: self.configuration.adminAccess,
            onBound: self.bound(.admin, "admin API", scheme: "http")
        )
    }

    static func url(scheme: String, _ address: SocketAddress) -> String {
        let host = address.ipAddress ?? "localhost"
        let shown = host.contains(":") ? "[\(host)]" : host
        return "\(scheme)://\(shown):\(address.port ?? 0)"
    }
}

import APNsAuth
import APNsCore
import APNsInspection
import APNsStore
import Logging
import NIOCore
import NIOPosix
import ServiceLifecycle
import UnixSignals

/// The whole emulator: store, relay, listeners and the work beside them, run as one ServiceGroup.
public final class Emulator: Sendable {
    public let configuration: EmulatorConfiguration
    public let store: NotificationStore
    let group: MultiThreadedEventLoopGroup
    private let serviceGroup: ServiceGroup
    let readiness: ReadinessGate
    /// The relay between the front doors, the store and connected devices.
    public let relay: Relay
    /// The journal, fault rules and metrics behind the admin API.
    public let inspection: Inspection
    /// The clock that governs expiry and the phone; tests move it through the admin API.
    public let clock: EmulatorClock
    private let verifier: ProviderTokenVerifier
    private let logger: Logger
    /// Every part, as the assembly made it: what the listeners, the seed and the export are built from.
    let parts: EmulatorParts
    /// What `run(beforeClosing:)` asks to do once the listeners are done, before the store closes.
    private let beforeClosing = BeforeClosing()

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
        var configuration = configuration
        if configuration.needsAdminToken { configuration.adminToken = AdminAccess.makeToken() }
        self.configuration = configuration
        self.logger = logger
        self.readiness = ReadinessGate(
            optional: Set(
                [configuration.h2cPort.map { _ in .h2c }, configuration.productionHTTP2Port.map { _ in .http2Production }]
                    .compactMap { $0 }))
        let tls = try EmulatorTLS(configuration, logger: logger)
        self.verifier = ProviderTokenVerifier(keys: try ProviderKeyStore(directory: configuration.keysDirectory, logger: logger))
        self.inspection = Inspection(
            journalCapacity: configuration.journalSize, logger: logger, logPushes: configuration.logPushes,
            faultIDPrefix: configuration.shard.map { "s\($0.index)-fault-" } ?? "fault-", providerExam: configuration.providerExam
        )
        self.clock = EmulatorClock(real: configuration.clock)
        self.store = try Self.openStore(configuration, clock: self.clock, inspection: self.inspection, logger: logger)
        self.group = MultiThreadedEventLoopGroup(numberOfThreads: max(1, configuration.eventLoopThreads))
        // The assembly: each part is made here once and handed what it uses.
        let (store, hub, storeClock) = (self.store, DeliveryHub(), self.store.configuration.clock)
        let channels = BroadcastChannels(store: store, clock: storeClock, logger: logger, shard: configuration.shard)
        let power = DevicePowerBook()
        let ids = EmulatorIDs(shard: configuration.shard)
        let phone = Phone(
            store: store, hub: hub, journal: self.inspection.journal, clock: storeClock, logger: logger,
            activityLimits: configuration.activityLimits, metrics: self.inspection.metrics, channels: channels,
            ids: ids, power: power)
        self.relay = Relay(store: store, hub: hub, phone: phone, power: power, group: self.group)
        phone.activities.resumeActivityPushes(on: self.group.next())
        let parts = EmulatorParts(
            configuration: configuration,
            group: self.group,
            relay: self.relay,
            reader: StoreReader(store: store),
            hub: hub,
            phone: phone,
            channels: channels,
            power: power,
            ids: ids,
            cluster: Cluster(
                shard: configuration.shard, peers: configuration.clusterPeers, token: configuration.adminToken, group: self.group,
                logger: logger),
            inspection: self.inspection,
            clock: self.clock,
            verifier: self.verifier,
            readiness: self.readiness,
            tls: tls,
            logger: logger,
            onListening: onListening
        )
        self.parts = parts
        let background = Self.background(
            configuration, parts, store: self.store, loop: self.group.next(), beforeClosing: self.beforeClosing)
        self.serviceGroup = Self.serviceGroup(background + parts.listeners(), signals: signals, logger: logger)
    }

    /// One group for everything long-lived: a service that ends, or fails, shuts the others down.
    private static func serviceGroup(_ services: [any Service], signals: [UnixSignal], logger: Logger) -> ServiceGroup {
        ServiceGroup(
            configuration: ServiceGroupConfiguration(
                services: services.map {
                    .init(
                        service: $0, successTerminationBehavior: .gracefullyShutdownGroup,
                        failureTerminationBehavior: .gracefullyShutdownGroup)
                },
                gracefulShutdownSignals: signals,
                logger: logger
            )
        )
    }

    /// What runs beside the listeners, in the order the group starts it (and the reverse of the
    /// order it ends): the store (closing last, after `beforeClosing`), the console's summary of
    /// pushes (a last one at the end), firing local notifications and moving Live Activities on as
    /// the clock reaches them, the cluster's catch-up of its peers' channels, the Simulator bridge.
    private static func background(
        _ configuration: EmulatorConfiguration, _ parts: EmulatorParts, store: NotificationStore, loop: any EventLoop,
        beforeClosing: BeforeClosing
    ) -> [any Service] {
        let (inspection, relay, phone, readiness, logger) = (
            parts.inspection, parts.relay, parts.phone, parts.readiness, parts.logger
        )
        var work = [
            BackgroundWork("store") {
                {
                    // An export at exit is of a world that ran: not after a listener could not bind.
                    if readiness.isReady { beforeClosing() }
                    store.close()
                }
            },
            BackgroundWork("push summaries") {
                let interval = TimeAmount(Inspection.pushSummaryInterval)
                let task = loop.scheduleRepeatedTask(initialDelay: interval, delay: interval) { _ in inspection.summarizePushes()
                }
                return {
                    task.cancel()
                    inspection.summarizePushes()
                }
            },
            BackgroundWork("local notifications") {
                let step = ClockStep(phone: phone, relay: relay)
                let task = loop.scheduleRepeatedAsyncTask(initialDelay: .seconds(1), delay: .milliseconds(500)) { _ in
                    step.run(on: loop).recover { error in
                        logger.warning("could not fire local notifications", metadata: ["store.error": "\(error)"])
                    }
                }
                return { task.cancel() }
            },
        ]
        if let cluster = parts.cluster {
            let channels = parts.channels
            work.append(
                BackgroundWork("cluster catch-up") {
                    // Its tries every 2 s end with the service group, not 60 s later.
                    let run = ChannelCatchUp()
                    cluster.catchUp(channels, on: loop, run: run)
                    return { run.stop() }
                })
        }
        if let device = configuration.simulatorDevice {
            work.append(
                BackgroundWork("simulator") {
                    let bridge = SimulatorBridge(device: device, journal: inspection.journal, logger: logger)
                    return { bridge.stop() }
                })
        }
        return work
    }

    /// Opens the store with the inspection as its observer, and loads what it holds into the journal.
    private static func openStore(
        _ configuration: EmulatorConfiguration, clock: EmulatorClock, inspection: Inspection, logger: Logger
    ) throws -> NotificationStore {
        var storeConfiguration = configuration.storeConfiguration
        storeConfiguration.clock = { clock.nowMillis }
        let store = try NotificationStore(configuration: storeConfiguration, logger: logger) { commit in
            inspection.committed(commit)
        }
        // The journal indexes everything the store keeps and reads it back from there.
        inspection.journal.useArchive(StoreArchiveSource(store: store))
        let kept = try store.rejections()
        let phone = Journal.phoneRecords(from: try store.phoneRecords())
        try inspection.journal.seed(kept: Inspection.keptRequests(from: kept.map(\.record)), phone: phone) {
            (add) throws(StoreError) in
            try store.visitNotifications(add)
        }
        // From now on each refusal, channel request and broadcast is kept too (best effort: the
        // provider's answer does not wait for it).
        inspection.keepRequests { receivedAt, id, record in
            store.submit([.recordRejection(RejectionKey(receivedAt: receivedAt, id: id), record: record)]) { _ in }
        }
        inspection.journal.keepPhoneRecords { sequence, record in
            store.submit([.recordPhone(sequence: sequence, record: record)]) { _ in }
        }
        return store
    }

    /// Serves until a shutdown signal or ``shutdown()``; returns after every accepted request
    /// has been answered and the store is closed. `beforeClosing` runs once the listeners are
    /// done and before the store closes (an export at exit).
    public func run(beforeClosing: @escaping @Sendable () -> Void = {}) async throws {
        self.beforeClosing.set(beforeClosing)
        do {
            try await self.serviceGroup.run()
        } catch {
            self.readiness.failed(error)
            try await self.group.shutdownGracefully()
            throw error
        }
        self.readiness.failed(ServerError(.stopped, subject: "emulator", "stopped"))
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
}

import APNsCore
import APNsInspection
import APNsStore
import APNsTestSupport
import Foundation
import Logging
import NIOCore
import NIOPosix

@testable import APNsServer

/// An admin router over a real store in a temporary directory and one event loop, without a
/// socket: requests go straight to ``AdminRouter/respond(method:uri:body:on:)``.
final class AdminRouterFixture {
    let directory: TemporaryDirectory
    let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
    let store: NotificationStore
    let inspection: Inspection
    let relay: Relay
    let phone: Phone
    let channels: BroadcastChannels
    let readiness = ReadinessGate()
    let router: AdminRouter

    init() throws {
        self.directory = try TemporaryDirectory()
        let logger = Logger(label: "admin-router-test")
        let inspection = Inspection(journalCapacity: 100, logger: logger)
        self.inspection = inspection
        let configuration = StoreConfiguration(directory: self.directory.path, mapSizeBytes: 64 << 20, durability: .relaxed)
        self.store = try NotificationStore(configuration: configuration, logger: logger) { inspection.committed($0) }
        // The parts as the emulator's assembly makes them.
        let (hub, power, clock) = (DeliveryHub(), DevicePowerBook(), self.store.configuration.clock)
        self.channels = BroadcastChannels(store: self.store, clock: clock, logger: logger)
        self.phone = Phone(
            store: self.store, hub: hub, journal: inspection.journal, clock: clock, logger: logger, channels: self.channels)
        self.relay = Relay(
            store: self.store, hub: hub, phone: self.phone, power: power, group: self.group)
        self.router = AdminRouter(
            relay: self.relay, reader: StoreReader(store: self.store), phone: self.phone, channels: self.channels, hub: hub,
            power: power, cluster: nil,
            inspection: inspection, readiness: self.readiness, clock: EmulatorClock(real: StoreConfiguration.systemClock))
    }

    /// An intake over these parts, on a clock that stands still at `now`.
    func intake(now: Int64) -> PushIntake {
        PushIntake(
            PushIntake.Parts(
                relay: self.relay, webApps: self.phone.webApps, activities: self.phone.activities, channels: self.channels,
                cluster: nil, inspection: self.inspection, ids: EmulatorIDs(shard: nil), environment: .development,
                clock: { now },
                logger: Logger(label: "intake-test")))
    }

    /// The answer to one request, and its body parsed as JSON when it is JSON.
    func request(_ method: String, _ uri: String, body: String = "") async throws -> (status: Int, json: Any?, text: String) {
        let loop = self.group.next()
        let router = self.router
        let reply = try await loop.flatSubmit {
            router.respond(method: method, uri: uri, body: Array(body.utf8), on: loop)
        }.get()
        guard case .response(let response) = reply else { return (200, nil, "<event stream>") }
        let json = try? JSONSerialization.jsonObject(with: Data(response.body))
        return (response.status, json, String(decoding: response.body, as: UTF8.self))
    }

    func close() throws {
        self.store.close()
        try self.group.syncShutdownGracefully()
        try self.directory.remove()
    }
}

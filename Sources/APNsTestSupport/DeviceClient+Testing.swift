import APNsCore
import APNsDevice
import APNsDeviceClient
import Foundation
import NIOCore
import NIOPosix

extension DeviceClient {
    /// The next notification, or an error if none arrives within `timeout` (which ends the
    /// notification stream).
    public func next(within timeout: Duration = .seconds(10)) async throws -> APNsCore.Notification {
        try await firstResult(within: timeout) {
            var iterator = self.notifications.makeAsyncIterator()
            guard let notification = try await iterator.next() else { throw DeviceClientError.closed }
            return notification
        }
    }
}

extension RunningEmulator {
    /// Checks that nothing more comes to `device` for `token` (of `topic`): a marker push goes to
    /// the token, and the next notification the device gets must be the marker. A device gets its
    /// token's notifications in the order they were stored, so anything still on its way comes
    /// first: no window of time is assumed, however slow the machine. Returns what came instead
    /// of the marker (nil: nothing did).
    public func expectNothingMoreDelivered(
        to device: DeviceClient, token: DeviceToken, topic: String
    ) async throws -> APNsCore.Notification? {
        let provider = try await self.http2Client()
        let marker = try await provider.accepted(token: token.hex, topic: topic, json: #"{"aps":{"alert":"marker"}}"#)
        try await provider.close()
        let next = try await device.next()
        return next.uniqueID == marker ? nil : next
    }

    /// A device connected to this emulator, on `group`'s threads (a benchmark keeps its devices'
    /// decoding off the threads its provider's answers are read on).
    public func device(
        _ id: String = "device-\(UUID().uuidString.prefix(8))", group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton
    ) async throws -> DeviceClient {
        try await DeviceClient.connect(
            host: "127.0.0.1", port: self.devicePort, caPath: self.caPath, deviceID: id,
            adminToken: self.emulator.configuration.adminToken, group: group)
    }
}

/// What `body` returns, or `TestClientError.timedOut` if it takes longer than `timeout` (the
/// body is then cancelled).
public func firstResult<T: Sendable>(
    within timeout: Duration, _ body: @escaping @Sendable () async throws -> T
) async throws -> T {
    try await withThrowingTaskGroup(of: T?.self) { group in
        group.addTask { try await body() }
        group.addTask {
            try await Task.sleep(for: timeout)
            return nil
        }
        defer { group.cancelAll() }
        guard let first = try await group.next(), let value = first else { throw TestClientError.timedOut }
        return value
    }
}

/// Polls `condition` until it holds or `timeout` passes; returns whether it held.
public func eventually(timeout: Duration = .seconds(10), _ condition: () async throws -> Bool) async rethrows -> Bool {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
        if try await condition() { return true }
        try? await Task.sleep(for: .milliseconds(10))
    }
    return try await condition()
}

extension RunningEmulator {
    /// A token registered by device `id`, which then disconnects: pushes to it wait in its queue.
    /// Returns once the emulator has seen the device go (`connected: false` in the admin API): until
    /// then a push would still be sent to the closed connection, not stored.
    public func offlineToken(topic: String, device id: String = "phone") async throws -> DeviceToken {
        let device = try await self.device(id)
        let token = try await device.register(topic: topic)
        try await device.close()
        let gone = await eventually {
            let devices = (try? await self.admin("/api/v1/devices").json()) as? [[String: Any]] ?? []
            return devices.contains { $0["token"] as? String == token.hex && $0["connected"] as? Bool == false }
        }
        guard gone else { throw TestClientError.unexpected("the emulator still holds device \(id) after it closed") }
        return token
    }
}

extension DeviceClient {
    /// The next thing the phone tells this (version-2) device that `matching` accepts, or an
    /// error if none comes within `timeout`. A timeout ends the event stream.
    public func nextEvent(
        within timeout: Duration = .seconds(10), _ matching: @escaping @Sendable (DeviceEvent) -> Bool
    ) async throws -> DeviceEvent {
        try await firstResult(within: timeout) {
            for await event in self.events where matching(event) { return event }
            throw DeviceClientError.closed
        }
    }

    /// How the phone presented notification `uniqueID` (it follows the notification).
    public func presentation(of uniqueID: String, within timeout: Duration = .seconds(10)) async throws -> Presentation {
        let event = try await self.nextEvent(within: timeout) { event in
            if case .presented(uniqueID, _) = event { return true }
            return false
        }
        guard case .presented(_, let presentation) = event else { throw TestClientError.timedOut }
        return presentation
    }
}

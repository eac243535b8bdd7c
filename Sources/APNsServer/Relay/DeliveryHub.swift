import APNsCore
import APNsDevice
import APNsWire
import NIOCore
import Synchronization

/// Which tokens have a device connected right now, and how to reach it.
public final class DeliveryHub: Sendable {
    private let subscribers = Mutex<[DeviceToken: DeviceSubscriber]>([:])
    /// Version-3 sessions by device id: what ActivityKit tells the device (tokens, activity
    /// changes) is for the device, not for one token.
    private let devices = Mutex<[String: DeviceSubscriber]>([:])
    /// Every session by device id, whatever its version: each hears of its device's power state.
    private let sessions = Mutex<[String: [ObjectIdentifier: DeviceSubscriber]]>([:])

    public init() {}

    /// Routes `token`'s notifications to `subscriber` (the newest connection for a token wins).
    func subscribe(_ token: DeviceToken, _ subscriber: DeviceSubscriber) {
        self.subscribers.withLock { $0[token] = subscriber }
    }

    /// Stops routing `token` to `subscriber`, unless another connection took it over since.
    func unsubscribe(_ token: DeviceToken, _ subscriber: DeviceSubscriber) {
        self.subscribers.withLock { subscribers in
            if subscribers[token] === subscriber { subscribers[token] = nil }
        }
    }

    /// Whether a device holding `token` is connected.
    public func isConnected(_ token: DeviceToken) -> Bool {
        self.subscribers.withLock { $0[token] != nil }
    }

    /// How many tokens have a device connected.
    public var connectedCount: Int { self.subscribers.withLock { $0.count } }

    /// Tells `token`'s device, if connected, what the phone did.
    func inform(_ token: DeviceToken, _ message: DeviceServerMessage) {
        self.subscribers.withLock { $0[token] }?.inform([message])
    }

    /// Hands `notification` to its token's device, if connected; returns whether it was.
    @discardableResult
    func deliver(_ notification: Notification) -> Bool {
        guard let subscriber = self.subscribers.withLock({ $0[notification.token] }) else { return false }
        subscriber.deliver(notification)
        return true
    }

    /// Tells `deviceID`'s device (its newest version-3 session) from now on.
    func subscribe(device deviceID: String, _ subscriber: DeviceSubscriber) {
        self.devices.withLock { $0[deviceID] = subscriber }
    }

    func unsubscribe(device deviceID: String, _ subscriber: DeviceSubscriber) {
        self.devices.withLock { devices in
            if devices[deviceID] === subscriber { devices[deviceID] = nil }
        }
    }

    /// Tells `deviceID`'s sessions of power state changes from now on.
    func join(device deviceID: String, _ subscriber: DeviceSubscriber) {
        self.sessions.withLock { $0[deviceID, default: [:]][ObjectIdentifier(subscriber)] = subscriber }
    }

    func leave(device deviceID: String, _ subscriber: DeviceSubscriber) {
        self.sessions.withLock { sessions in
            sessions[deviceID]?[ObjectIdentifier(subscriber)] = nil
            if sessions[deviceID]?.isEmpty == true { sessions[deviceID] = nil }
        }
    }

    /// Tells every session of every device that its power state is back to the default (a reset).
    func powerReset() {
        for subscriber in self.sessions.withLock({ $0.values.flatMap(\.values) }) { subscriber.power(DevicePower()) }
    }

    /// Tells every session of `deviceID` its new power state.
    func power(device deviceID: String, _ power: DevicePower) {
        for subscriber in self.sessions.withLock({ $0[deviceID].map { Array($0.values) } ?? [] }) { subscriber.power(power) }
    }

    /// Tells the device, if a version-3 session holds it, what the phone did, in order.
    func inform(device deviceID: String, _ messages: [DeviceServerMessage]) {
        guard !messages.isEmpty else { return }
        self.devices.withLock { $0[deviceID] }?.inform(messages)
    }
}

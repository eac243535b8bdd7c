import APNsCore
import APNsDevice
import APNsWire
import NIOCore
import Synchronization

/// A connected device session, as the hub reaches it.
public final class DeviceSubscriber: Sendable {
    let eventLoop: any EventLoop
    /// Hands a notification to the session; runs on `eventLoop`.
    private let handOver: @Sendable (Notification) -> Void
    /// Tells the session what the phone did (a response, a changed app, a broadcast's changes), in
    /// order and with one flush; runs on `eventLoop`.
    private let tell: @Sendable ([DeviceServerMessage]) -> Void
    /// Tells the session its device's power state changed; runs on `eventLoop`.
    private let powerChanged: @Sendable (DevicePower) -> Void

    init(
        eventLoop: any EventLoop, handOver: @escaping @Sendable (Notification) -> Void,
        tell: @escaping @Sendable ([DeviceServerMessage]) -> Void,
        powerChanged: @escaping @Sendable (DevicePower) -> Void
    ) {
        self.eventLoop = eventLoop
        self.handOver = handOver
        self.tell = tell
        self.powerChanged = powerChanged
    }

    /// Tells the session its device's new power state, from any thread.
    func power(_ power: DevicePower) {
        self.eventLoop.execute { self.powerChanged(power) }
    }

    /// Tells the session `messages`, in order, from any thread: one hop to its event loop and one
    /// flush for them all (a broadcast tells a device of each of its activities at once).
    func inform(_ messages: [DeviceServerMessage]) {
        guard !messages.isEmpty else { return }
        if self.eventLoop.inEventLoop {
            self.tell(messages)
        } else {
            self.eventLoop.execute { self.tell(messages) }
        }
    }

    /// Delivers on the session's event loop, from any thread.
    func deliver(_ notification: Notification) {
        if self.eventLoop.inEventLoop {
            self.handOver(notification)
        } else {
            self.eventLoop.execute { self.handOver(notification) }
        }
    }
}

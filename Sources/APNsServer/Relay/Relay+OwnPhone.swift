import APNsCore
import APNsDevice
import APNsStore
import NIOCore

/// The emulator's own phone as a device (``OwnDevices``): a device a seed declared takes its
/// pushes while no device is attached, following its power state as an attached device does;
/// and every device's Live Activities, which ActivityKit takes while the device is online (their
/// broadcasts too: a channel's stored message reaches a device that comes back online).
extension Relay {
    /// Hands the phone what device `deviceID` kept queued and its power state now lets through,
    /// oldest first, each then out of its queue: its Live Activity tokens' pushes (held while it
    /// was offline), and, for one of the phone's own devices, its tokens' pushes (everything, with
    /// `all`: a priority-10 push woke it). A token a device is attached to is that device's to
    /// drain. Call on `eventLoop`.
    func release(device deviceID: String, all: Bool, on eventLoop: any EventLoop) {
        let power = self.power.power(of: deviceID)
        guard power.online else { return }
        let own = self.phone.ownDevices.owns(device: deviceID) ? self.phone.ownDevices.ownTokens(of: deviceID) : []
        if all {
            // Nothing waits for a priority-10 push unless the power state holds some priorities.
            guard power.lowPowerMode || power.locked else { return }
            self.release(own, power: nil, presented: true, on: eventLoop)
        } else {
            self.release(self.phone.activities.activityTokens(of: deviceID), power: nil, presented: false, on: eventLoop)
            self.phone.activities.deliverStoredBroadcasts(to: deviceID, on: eventLoop)
            self.release(own, power: power, presented: true, on: eventLoop)
        }
    }

    /// Hands the phone each of `tokens`' queued notifications that `power` does not hold (all,
    /// without it) and takes it out of its queue: `presented` for an own device's tokens, to
    /// ActivityKit for Live Activity tokens.
    private func release(_ tokens: [DeviceToken], power: DevicePower?, presented: Bool, on eventLoop: any EventLoop) {
        let (now, longest) = (self.nowSeconds, self.maximumStorageSeconds)
        for token in tokens where !self.hub.isConnected(token) {
            let queued: [QueuedNotification]
            do {
                queued = try self.store.queued(for: token)
            } catch {
                self.phone.logger.warning(
                    "could not read a queue the phone takes", metadata: ["apns.token": "\(token.hex)", "store.error": "\(error)"])
                continue
            }
            for notification in queued.map(\.notification) where power?.holds(notification.priority) == nil {
                // An expired one is left for expiry to take out of the queue.
                guard !notification.hasExpired(nowSeconds: now, maximumStorageSeconds: longest) else { continue }
                _ = self.phone.takeUndelivered(notification, deviceless: presented, on: eventLoop)
                _ = self.submit(.acknowledge(uniqueID: notification.uniqueID), on: eventLoop)
            }
        }
    }

    /// ``release(device:all:on:)`` on one of the emulator's loops, from any thread: the
    /// device's power state changed, or a device attached to its tokens left.
    func releaseSoon(device deviceID: String) {
        guard let loop = self.anyEventLoop else { return }
        loop.execute { self.release(device: deviceID, all: false, on: loop) }
    }
}

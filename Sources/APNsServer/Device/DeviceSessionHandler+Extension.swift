import APNsCore
import APNsWire
import NIOCore

/// Version 4 of the device protocol: the device is its app's service extension
/// (`"serviceExtension": {"device": true}`): asked with `extend` for the content of a notification
/// it was handed, it answers with `extended`, and hears `presented` once the phone has shown it.
extension DeviceSessionHandler {
    /// This session as an app's service extension; nil before version 4. Made once, at welcome,
    /// not at every hand-over.
    func makeExtensionDevice() -> ExtensionDevice? {
        guard self.machine.version >= 4, let deviceID = self.machine.deviceID, let context = self.context else { return nil }
        let loop = context.eventLoop
        let bound = NIOLoopBound(self, eventLoop: loop)
        return ExtensionDevice(deviceID: deviceID) { uniqueID, content in
            loop.execute { bound.value.send(.extend(uniqueID: uniqueID, document: content)) }
        }
    }

    /// The phone presents a notification just handed over; a version-2 device hears how once it
    /// is decided (a service extension may take a while).
    func present(_ notification: Notification, on loop: any EventLoop) {
        let bound = self.machine.version >= 2 ? NIOLoopBound(self, eventLoop: loop) : nil
        self.phone.notifications.present(notification, on: loop, device: self.extensionDevice) { presentation in
            guard let bound else { return }
            let message = DeviceServerMessage.presented(
                uniqueID: notification.uniqueID, document: Phone.json(presentation ?? PhoneNotifications.noApp))
            if loop.inEventLoop { bound.value.send(message) } else { loop.execute { bound.value.send(message) } }
        }
    }

    /// The device's extension replied: the phone presents the content (and the device hears
    /// `presented`); a reply nobody waits for (too late, or for another device) is refused.
    func extended(deviceID: String, uniqueID: String, document: [UInt8]) {
        guard !self.phone.notifications.finishExtension(uniqueID, .replied(.success(document)), from: deviceID) else { return }
        self.send(
            .refused(
                subject: uniqueID, status: 409,
                message:
                    "no service extension run of this device awaits \(uniqueID): its time ran out (the original was shown), or it was not asked"
            ))
    }
}

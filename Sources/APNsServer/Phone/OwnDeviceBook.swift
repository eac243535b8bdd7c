import APNsCore
import Synchronization

/// The phone's own devices and their tokens (``OwnDevices``), behind a lock of their own.
///
/// Thread-safe.
final class OwnDeviceBook: Sendable {
    private let ownDevices = RankedMutex(.index, OwnDevices())
    /// Whether any device is the phone's own: the accept path's lookup is one load without one.
    private let hasOwnDevices = Atomic<Bool>(false)

    /// Makes `deviceID` one of the phone's own devices (a seed declared it), with `tokens` (the
    /// web apps subscribed on it).
    func adopt(device deviceID: String, tokens: some Sequence<DeviceToken>) {
        self.ownDevices.withLock { own in
            own.ids.insert(deviceID)
            for token in tokens { own.tokens[token] = deviceID }
        }
        self.hasOwnDevices.store(true, ordering: .releasing)
    }

    /// Notes that `token` was issued to `deviceID`: it is the phone's when the device is.
    func issued(_ token: DeviceToken, to deviceID: String?) {
        guard let deviceID else { return }
        self.ownDevices.withLock { own in
            if own.ids.contains(deviceID) { own.tokens[token] = deviceID }
        }
    }

    /// The own device `token` belongs to, if it is one's (one lookup; on the accept path).
    func ownDevice(of token: DeviceToken) -> String? {
        guard self.hasOwnDevices.load(ordering: .acquiring) else { return nil }
        return self.ownDevices.withLock { $0.tokens[token] }
    }

    /// Whether `deviceID` is one of the phone's own devices.
    func owns(device deviceID: String) -> Bool {
        self.ownDevices.withLock { $0.ids.contains(deviceID) }
    }

    /// The tokens of own device `deviceID`.
    func ownTokens(of deviceID: String) -> [DeviceToken] {
        self.ownDevices.withLock { own in own.tokens.compactMap { $0.value == deviceID ? $0.key : nil } }
    }
}

extension OwnDeviceBook {
    /// Forgets every own device (a reset that forgets the devices; the seed declares them again).
    func reset() {
        self.ownDevices.withLock { $0 = OwnDevices() }
    }
}

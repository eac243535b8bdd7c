import APNsCore
import Synchronization

/// The devices that are the emulator's own phone: those a seed declares. While no device is
/// attached to one of their tokens (`apns-emulator device --device-id <id>` takes a token over
/// while it is connected), the phone itself takes the token's pushes as an online device would,
/// following the device's power state (``DevicePower``): online and awake, each is presented as it
/// is accepted; offline, or held by Low Power Mode or the lock, it stays queued until the state
/// lets it go. Kept in memory, from the seed at each start.
struct OwnDevices: Sendable {
    /// The device ids.
    var ids: Set<String> = []
    /// Each of their tokens, with its device's id.
    var tokens: [DeviceToken: String] = [:]
}

extension Phone {
    /// Makes `deviceID` one of the phone's own devices (a seed declared it), with the web apps
    /// subscribed on it.
    func adopt(device deviceID: String) {
        let webApps = self.webApps.withLock { $0.devicesByToken() }.filter { $0.value == deviceID }
        self.ownDevices.withLock { own in
            own.ids.insert(deviceID)
            for token in webApps.keys { own.tokens[token] = deviceID }
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

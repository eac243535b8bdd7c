import APNsCore

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

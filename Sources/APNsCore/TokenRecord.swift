/// A token the emulator issued (or learnt of), and its state.
public struct TokenRecord: Sendable, Equatable {
    public var token: DeviceToken
    public var topic: String
    public var deviceID: String?
    /// Milliseconds since the UNIX epoch.
    public var registeredAt: Int64
    /// When the app was removed; nil while the token is valid.
    public var unregisteredAt: Int64?

    public init(token: DeviceToken, topic: String, deviceID: String?, registeredAt: Int64, unregisteredAt: Int64?) {
        self.token = token
        self.topic = topic
        self.deviceID = deviceID
        self.registeredAt = registeredAt
        self.unregisteredAt = unregisteredAt
    }
}

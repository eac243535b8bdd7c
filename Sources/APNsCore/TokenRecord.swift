/// A token the emulator issued (or learnt of), and its state.
public struct TokenRecord: Sendable, Equatable {
    public var token: DeviceToken
    public var topic: String
    public var deviceID: String?
    /// Milliseconds since the UNIX epoch.
    public var registeredAt: Int64
    /// When the app was removed; nil while the token is valid.
    public var unregisteredAt: Int64?
    /// The environment of the app build that registered it: a push for it goes to that
    /// environment's endpoint (elsewhere, 400 BadDeviceToken).
    public var environment: APNsEnvironment

    public init(
        token: DeviceToken, topic: String, deviceID: String?, registeredAt: Int64, unregisteredAt: Int64?,
        environment: APNsEnvironment = .development
    ) {
        self.environment = environment
        self.token = token
        self.topic = topic
        self.deviceID = deviceID
        self.registeredAt = registeredAt
        self.unregisteredAt = unregisteredAt
    }
}

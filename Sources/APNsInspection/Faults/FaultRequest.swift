import APNsCore

/// The fields of a provider request that fault rules look at. The token is worked out only when a
/// rule asks for it.
public struct FaultRequest {
    public var interface: Interface
    public var token: () -> String
    public var topic: String?
    public var pushType: String?
    public var channelID: String?

    public init(interface: Interface, token: @escaping () -> String, topic: String?, pushType: String?) {
        self.interface = interface
        self.token = token
        self.topic = topic
        self.pushType = pushType
    }
}

/// A broadcast that passed the checks of its own: what the channel's subscribers are sent.
public struct BroadcastPush: Hashable, Sendable {
    public var requestID: String
    public var channelID: String
    public var priority: Priority
    /// UNIX seconds; 0 = now or never.
    public var expiration: Int64
    /// The JSON object: the `aps` of a Live Activity update or end.
    public var payload: [UInt8]

    public init(requestID: String, channelID: String, priority: Priority, expiration: Int64, payload: [UInt8]) {
        self.requestID = requestID
        self.channelID = channelID
        self.priority = priority
        self.expiration = expiration
        self.payload = payload
    }
}

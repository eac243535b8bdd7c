/// A token that became invalid, for the feedback service.
public struct FeedbackEntry: Sendable, Equatable {
    public var token: DeviceToken
    public var topic: String
    /// Milliseconds since the UNIX epoch.
    public var at: Int64

    public init(token: DeviceToken, topic: String, at: Int64) {
        self.token = token
        self.topic = topic
        self.at = at
    }
}

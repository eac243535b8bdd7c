/// A notification in Notification Center.
public struct DeliveredNotification: Hashable, Sendable, Codable {
    public var uniqueID: String
    /// Milliseconds since the UNIX epoch when it was presented.
    public var presentedAt: Int64
    public var presentation: Presentation
    /// The local notification request it came from, if any (cancelling it takes this away too).
    public var requestIdentifier: String?

    public init(uniqueID: String, presentedAt: Int64, presentation: Presentation) {
        self.uniqueID = uniqueID
        self.presentedAt = presentedAt
        self.presentation = presentation
    }

    private enum CodingKeys: String, CodingKey {
        case uniqueID = "uniqueId"
        case presentedAt, presentation, requestIdentifier
    }
}

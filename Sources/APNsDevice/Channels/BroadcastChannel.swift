import APNsCore

/// One broadcast channel as APNs keeps it for a bundle in one environment: its configuration,
/// when it was created (and deleted: ids are never reused, so a deleted channel stays known),
/// and, with message-storage-policy 1, its most recent message. Times in milliseconds since the
/// UNIX epoch on the emulator's clock.
public struct BroadcastChannel: Codable, Hashable, Sendable {
    public var id: String
    public var bundleID: String
    public var storagePolicy: Int
    public var pushType: String
    public var createdAt: Int64
    public var deletedAt: Int64?
    /// The most recent broadcast, kept for later subscribers (policy 1 only).
    public var message: StoredBroadcast?
    /// How many broadcasts it carried.
    public var published: Int
    /// The environment it was created in, the only one whose requests and broadcasts reach it;
    /// nil for a channel kept before environments (reached from both).
    public var environment: APNsEnvironment?

    public init(id: String, bundleID: String, configuration: ChannelConfiguration, createdAt: Int64) {
        self.id = id
        self.bundleID = bundleID
        self.storagePolicy = configuration.storagePolicy
        self.pushType = configuration.pushType
        self.createdAt = createdAt
        self.published = 0
    }

    public var isDeleted: Bool { self.deletedAt != nil }

    /// The stored message, if it is still to be handed to a new subscriber at `now`.
    public func storedMessage(at now: Int64) -> StoredBroadcast? {
        guard let message = self.message, message.expiresAt > now else { return nil }
        return message
    }
}

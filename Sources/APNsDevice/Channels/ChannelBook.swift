import APNsCore

/// Every broadcast channel of one environment, and which bundles have the broadcast capability
/// turned off: APNs' side of broadcast push as a value. Each request is a function from the book
/// and the request to a new book and an answer (Apple, "Sending channel management requests to
/// APNs", "Sending broadcast push notification requests to APNs").
public struct ChannelBook: Sendable {
    /// Every channel ever created, deleted ones included (ids are never reused), by id.
    public private(set) var channels: [String: BroadcastChannel] = [:]
    /// Bundles whose broadcast capability is off (on by default).
    public private(set) var disabled: Set<String> = []
    /// How many live channels each bundle has, kept in step so a create need not count them.
    private var liveCounts: [String: Int] = [:]
    /// Channels a bundle may hold at once: Apple's 10,000 per environment.
    public var limit = 10_000
    /// How long a policy-1 channel keeps its most recent message: 8 hours.
    public static let storageWindow: Int64 = 8 * 3_600_000

    public init(channels: [BroadcastChannel] = [], disabled: Set<String> = []) {
        for channel in channels {
            self.channels[channel.id] = channel
            if !channel.isDeleted { self.liveCounts[channel.bundleID, default: 0] += 1 }
        }
        self.disabled = disabled
    }

    /// The bundle's channels that exist now in `environment` (nil: in either), oldest first.
    public func live(_ bundleID: String, in environment: APNsEnvironment? = nil) -> [BroadcastChannel] {
        self.channels.values.filter {
            $0.bundleID == bundleID && !$0.isDeleted && Self.reaches(environment, $0)
        }.sorted {
            ($0.createdAt, $0.id) < ($1.createdAt, $1.id)
        }
    }

    public func isEnabled(_ bundleID: String) -> Bool { !self.disabled.contains(bundleID) }

    /// Whether a request in `environment` reaches `channel`: a channel belongs to the environment
    /// it was created in (nil on either side: no environment to tell apart).
    static func reaches(_ environment: APNsEnvironment?, _ channel: BroadcastChannel) -> Bool {
        guard let environment, let created = channel.environment else { return true }
        return environment == created
    }

    /// Creates a channel with id `id` (the caller draws it; one already known is refused, so an id is never reused).
    public mutating func create(
        _ bundleID: String, _ configuration: ChannelConfiguration, id: String, now: Int64, in environment: APNsEnvironment? = nil
    ) -> Result<BroadcastChannel, Reason> {
        guard self.isEnabled(bundleID) else { return .failure(.featureNotEnabled) }
        guard self.channels[id] == nil else {
            return .failure(Reason.internalServerError.explained("channel id \(id) was drawn twice"))
        }
        let count = self.liveCounts[bundleID] ?? 0
        guard count < self.limit else {
            return .failure(
                Reason.cannotCreateChannelConfig.explained(
                    "\(bundleID) already has \(count) channels, the most APNs keeps per bundle in one environment"))
        }
        var channel = BroadcastChannel(id: id, bundleID: bundleID, configuration: configuration, createdAt: now)
        channel.environment = environment
        self.channels[id] = channel
        self.liveCounts[bundleID] = count + 1
        return .success(channel)
    }

    /// The bundle's live channel `id` in `environment` (nil: either): `FeatureNotEnabled` when the
    /// capability is off, `ChannelNotRegistered` when there is no such channel (never created,
    /// deleted, another bundle's, or created in the other environment, which the explanation says).
    public func channel(
        _ id: String, of bundleID: String, in environment: APNsEnvironment? = nil
    ) -> Result<BroadcastChannel, Reason> {
        guard self.isEnabled(bundleID) else { return .failure(.featureNotEnabled) }
        guard let channel = self.channels[id], channel.bundleID == bundleID, !channel.isDeleted else {
            return .failure(Reason.channelNotRegistered.explained("\(bundleID) has no channel \(id.prefix(80))"))
        }
        guard let environment, let created = channel.environment, created != environment else { return .success(channel) }
        return .failure(
            Reason.channelNotRegistered.explained(
                "channel \(id.prefix(80)) was created in \(created.environmentName) (\(created.channelHost)), not in \(environment.environmentName), where this request was sent: a channel belongs to the environment it was created in"
            ))
    }

    /// Deletes channel `id`; its stored message is kept until it expires.
    public mutating func delete(
        _ id: String, of bundleID: String, now: Int64, in environment: APNsEnvironment? = nil
    ) -> Result<BroadcastChannel, Reason> {
        let channel: BroadcastChannel
        switch self.channel(id, of: bundleID, in: environment) {
        case .success(let found): channel = found
        case .failure(let reason): return .failure(reason)
        }
        self.channels[id]?.deletedAt = now
        self.liveCounts[bundleID, default: 1] -= 1
        return .success(self.channels[id] ?? channel)
    }

    /// Takes a broadcast on channel `id`: policy 0 only with expiration 0; policy 1 keeps it as
    /// the stored message (replacing the one before) until its expiration, 8 hours at most.
    public mutating func publish(
        _ push: BroadcastPush, to bundleID: String, uniqueID: String, now: Int64, in environment: APNsEnvironment? = nil
    ) -> Result<BroadcastChannel, Reason> {
        let channel: BroadcastChannel
        switch self.channel(push.channelID, of: bundleID, in: environment) {
        case .success(let found): channel = found
        case .failure(let reason): return .failure(reason)
        }
        if let reason = BroadcastValidator.expirationRefusal(push.expiration, policy: channel.storagePolicy) {
            return .failure(reason)
        }
        var updated = channel
        updated.published += 1
        if channel.storagePolicy == 1 {
            let window = now + Self.storageWindow
            let expiresAt = push.expiration == 0 ? now : min(push.expiration * 1000, window)
            updated.message =
                expiresAt > now
                ? StoredBroadcast(
                    uniqueID: uniqueID, payload: push.payload, priority: Int(push.priority.rawValue), receivedAt: now,
                    expiresAt: expiresAt) : nil
        }
        self.channels[push.channelID] = updated
        return .success(updated)
    }

    /// Whether an activity of `bundleID` may subscribe to channel `id` at `now`: a live channel,
    /// or a deleted one whose stored message is still to be delivered.
    public func subscribable(_ id: String, of bundleID: String, now: Int64) -> BroadcastChannel? {
        guard let channel = self.channels[id], channel.bundleID == bundleID, self.isEnabled(bundleID) else { return nil }
        if channel.isDeleted && channel.storedMessage(at: now) == nil { return nil }
        return channel
    }

    /// Turns the bundle's broadcast capability on or off; turning it off deletes its channels
    /// (returned, as deleted).
    public mutating func setEnabled(_ bundleID: String, _ enabled: Bool, now: Int64) -> [BroadcastChannel] {
        guard !enabled else {
            self.disabled.remove(bundleID)
            return []
        }
        self.disabled.insert(bundleID)
        var deleted: [BroadcastChannel] = []
        for channel in self.live(bundleID) {
            self.channels[channel.id]?.deletedAt = now
            self.liveCounts[bundleID, default: 1] -= 1
            if let updated = self.channels[channel.id] { deleted.append(updated) }
        }
        return deleted
    }

    /// Takes `channel` as the shard that owns its bundle has it now (created, deleted, its latest
    /// message), so that activities here subscribe to it and apply its broadcasts.
    public mutating func adopt(_ channel: BroadcastChannel) {
        let wasLive = self.channels[channel.id].map { !$0.isDeleted } ?? false
        self.channels[channel.id] = channel
        switch (wasLive, channel.isDeleted) {
        case (false, false): self.liveCounts[channel.bundleID, default: 0] += 1
        case (true, true): self.liveCounts[channel.bundleID, default: 1] -= 1
        default: break
        }
    }

    /// Forgets everything (a full reset).
    public mutating func removeAll() {
        self.channels = [:]
        self.disabled = []
        self.liveCounts = [:]
    }
}

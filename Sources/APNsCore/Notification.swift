/// A notification APNs accepted: everything a device will receive, and where it came from.
public struct Notification: Hashable, Sendable {
    /// The provider's `apns-id` (echoed or generated).
    public var apnsID: String
    /// The emulator's own key for this delivery (`apns-unique-id`).
    public var uniqueID: String
    public var token: DeviceToken
    /// The `apns-topic`, when the provider gave one.
    public var topic: String?
    public var pushType: PushType
    public var priority: Priority
    /// `apns-expiration`: UNIX seconds after which the notification is not delivered; 0 = deliver
    /// now or never; `nil` (header omitted) = kept as long as the storage policy allows.
    public var expiration: Int64?
    public var collapseID: String?
    /// The JSON object, as the provider sent it.
    public var payload: [UInt8]
    /// Milliseconds since the UNIX epoch when the emulator accepted it.
    public var receivedAt: Int64
    public var source: Interface

    public init(
        apnsID: String,
        uniqueID: String,
        token: DeviceToken,
        topic: String?,
        pushType: PushType,
        priority: Priority,
        expiration: Int64?,
        collapseID: String?,
        payload: [UInt8],
        receivedAt: Int64,
        source: Interface
    ) {
        self.apnsID = apnsID
        self.uniqueID = uniqueID
        self.token = token
        self.topic = topic
        self.pushType = pushType
        self.priority = priority
        self.expiration = expiration
        self.collapseID = collapseID
        self.payload = payload
        self.receivedAt = receivedAt
        self.source = source
    }

    /// The UNIX second at which the notification stops being deliverable: its expiration, capped
    /// at `maximumStorageSeconds` after acceptance (APNs keeps notifications at most 30 days).
    public func effectiveExpiration(maximumStorageSeconds: Int64) -> Int64 {
        let limit = self.receivedAt / 1000 + maximumStorageSeconds
        guard let expiration = self.expiration else { return limit }
        return min(expiration, limit)
    }

    /// Whether APNs would store this notification for an offline device at `nowSeconds`:
    /// expiration 0 means "once, now", and a past expiration is no better.
    public func isStorable(nowSeconds: Int64, maximumStorageSeconds: Int64) -> Bool {
        self.expiration != 0 && self.effectiveExpiration(maximumStorageSeconds: maximumStorageSeconds) > nowSeconds
    }
}

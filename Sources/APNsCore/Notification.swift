/// A notification APNs accepted: everything a device will receive, and where it came from.
public struct Notification: Hashable, Sendable {
    /// The fields, behind one reference: a notification is copied at every step of its way (the
    /// door's check, the relay, the store's operation and its change, the journal, the phone), and
    /// a copy of one reference is one retain where eleven fields were five retains and 150 bytes
    /// moved. Never changed in place: a setter (rare: the door narrows a topic) makes a new one.
    /// Inlinable, with the accessors: a field is read in the caller's module without a call
    /// (and without the retain a call's return would take).
    @usableFromInline
    final class Box: Sendable {
        @usableFromInline let fields: Fields
        @usableFromInline init(_ fields: Fields) { self.fields = fields }
    }

    @usableFromInline
    struct Fields: Hashable, Sendable {
        @usableFromInline var apnsID: String
        @usableFromInline var uniqueID: String
        @usableFromInline var token: DeviceToken
        @usableFromInline var topic: String?
        @usableFromInline var pushType: PushType
        @usableFromInline var priority: Priority
        @usableFromInline var expiration: Int64?
        @usableFromInline var collapseID: String?
        @usableFromInline var payload: [UInt8]
        @usableFromInline var receivedAt: Int64
        @usableFromInline var source: Interface
        @usableFromInline var assumed: AssumedHeaders
        @usableFromInline var environment: APNsEnvironment
    }

    @usableFromInline var box: Box

    @usableFromInline
    mutating func set<Value>(_ field: WritableKeyPath<Fields, Value>, _ value: Value) {
        var fields = self.box.fields
        fields[keyPath: field] = value
        self.box = Box(fields)
    }

    /// The provider's `apns-id` (echoed or generated).
    @inlinable public var apnsID: String {
        get { self.box.fields.apnsID }
        set { self.set(\.apnsID, newValue) }
    }
    /// The emulator's own key for this delivery (`apns-unique-id`).
    @inlinable public var uniqueID: String {
        get { self.box.fields.uniqueID }
        set { self.set(\.uniqueID, newValue) }
    }
    @inlinable public var token: DeviceToken {
        get { self.box.fields.token }
        set { self.set(\.token, newValue) }
    }
    /// The `apns-topic`, when the provider gave one.
    @inlinable public var topic: String? {
        get { self.box.fields.topic }
        set { self.set(\.topic, newValue) }
    }
    @inlinable public var pushType: PushType {
        get { self.box.fields.pushType }
        set { self.set(\.pushType, newValue) }
    }
    @inlinable public var priority: Priority {
        get { self.box.fields.priority }
        set { self.set(\.priority, newValue) }
    }
    /// `apns-expiration`: UNIX seconds after which the notification is not delivered; 0 = deliver
    /// now or never; `nil` (header omitted) = kept as long as the storage policy allows.
    @inlinable public var expiration: Int64? {
        get { self.box.fields.expiration }
        set { self.set(\.expiration, newValue) }
    }
    @inlinable public var collapseID: String? {
        get { self.box.fields.collapseID }
        set { self.set(\.collapseID, newValue) }
    }
    /// The JSON object, as the provider sent it.
    @inlinable public var payload: [UInt8] {
        get { self.box.fields.payload }
        set { self.set(\.payload, newValue) }
    }
    /// Milliseconds since the UNIX epoch when the emulator accepted it.
    @inlinable public var receivedAt: Int64 {
        get { self.box.fields.receivedAt }
        set { self.set(\.receivedAt, newValue) }
    }
    @inlinable public var source: Interface {
        get { self.box.fields.source }
        set { self.set(\.source, newValue) }
    }
    /// The headers the provider did not send, whose values the emulator assumed.
    @inlinable public var assumed: AssumedHeaders {
        get { self.box.fields.assumed }
        set { self.set(\.assumed, newValue) }
    }

    /// The environment it was sent to (the endpoint, or the Apple host the request named).
    @inlinable public var environment: APNsEnvironment {
        get { self.box.fields.environment }
        set { self.set(\.environment, newValue) }
    }

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
        source: Interface,
        assumed: AssumedHeaders = [],
        environment: APNsEnvironment = .development
    ) {
        self.box = Box(
            Fields(
                apnsID: apnsID, uniqueID: uniqueID, token: token, topic: topic, pushType: pushType, priority: priority,
                expiration: expiration, collapseID: collapseID, payload: payload, receivedAt: receivedAt, source: source,
                assumed: assumed, environment: environment))
    }

    public static func == (lhs: Notification, rhs: Notification) -> Bool {
        lhs.box === rhs.box || lhs.box.fields == rhs.box.fields
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(self.box.fields)
    }

    /// The UNIX second at which the notification stops being deliverable: its expiration, capped
    /// at `maximumStorageSeconds` after acceptance (APNs keeps notifications at most 30 days).
    public func effectiveExpiration(maximumStorageSeconds: Int64) -> Int64 {
        Self.effectiveExpiration(self.expiration, receivedAt: self.receivedAt, maximumStorageSeconds: maximumStorageSeconds)
    }

    /// ``effectiveExpiration(maximumStorageSeconds:)`` of a notification with this expiration
    /// (nil: none given) and time of acceptance (UNIX milliseconds).
    public static func effectiveExpiration(_ expiration: Int64?, receivedAt: Int64, maximumStorageSeconds: Int64) -> Int64 {
        let limit = receivedAt / 1000 + maximumStorageSeconds
        guard let expiration else { return limit }
        return min(expiration, limit)
    }

    /// Whether it is past its expiration at `nowSeconds` and must not be handed over (expiration 0
    /// is "now": whoever holds it at acceptance hands it over).
    public func hasExpired(nowSeconds: Int64, maximumStorageSeconds: Int64) -> Bool {
        self.expiration != 0 && self.effectiveExpiration(maximumStorageSeconds: maximumStorageSeconds) <= nowSeconds
    }

    /// Whether APNs would store this notification for an offline device at `nowSeconds`:
    /// expiration 0 means "once, now", and a past expiration is no better.
    public func isStorable(nowSeconds: Int64, maximumStorageSeconds: Int64) -> Bool {
        self.expiration != 0 && self.effectiveExpiration(maximumStorageSeconds: maximumStorageSeconds) > nowSeconds
    }
}

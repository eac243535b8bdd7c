import APNsCore
import Foundation

/// Settings of a ``NotificationStore``.
public struct StoreConfiguration: Sendable {
    /// The data directory (created if missing).
    public var directory: String
    /// The LMDB map size: the most the store can hold.
    public var mapSizeBytes: Int
    public var durability: Durability
    /// How often a relaxed store syncs to disk.
    public var relaxedSyncInterval: Duration
    /// How often expired notifications are swept out of the queues.
    public var sweepInterval: Duration
    /// How much history (notifications that left their queues, rejected requests) is kept.
    public var retention: Retention
    /// The longest a notification is stored, whatever its expiration (APNs: 30 days).
    public var maximumStorageSeconds: Int64
    /// Which tokens a push may go to.
    public var tokenPolicy: TokenPolicy = .open
    /// The environment a token registered without one belongs to (`serve --environment`'s).
    public var defaultEnvironment: APNsEnvironment = .development
    /// What an offline device's queue keeps: every notification unless told (the store's own
    /// tests rely on it); the emulator's configuration chooses `latest`, as APNs does.
    public var storagePolicy: StoragePolicy = .all
    /// The most notifications one token's queue holds under the `all` policy; the oldest go first.
    public var maximumQueuedPerDevice: Int = 1000
    /// How long the writer keeps looking for work after a commit before it sleeps, while requests
    /// follow each other closely (zero: it sleeps at once). It spares one request at a time the
    /// wake-up of a sleeping thread, at the price of a core's time while it looks: worth it for an
    /// emulator in a process of its own, not for many in one process (a test suite).
    public var writerSpin: Duration = .zero
    /// Milliseconds since the UNIX epoch; tests replace it to move time.
    public var clock: @Sendable () -> Int64
    /// Whether operations are checked before their transaction (always, but for the tests that
    /// prove a bad operation fails alone even when it reaches the transaction).
    var checksOperations = true

    public init(
        directory: String,
        mapSizeBytes: Int = 4 << 30,
        durability: Durability = .durable,
        relaxedSyncInterval: Duration = .seconds(1),
        sweepInterval: Duration = .seconds(1),
        retention: Retention = .standard,
        maximumStorageSeconds: Int64 = 30 * 86_400,
        clock: @escaping @Sendable () -> Int64 = StoreConfiguration.systemClock
    ) {
        self.directory = directory
        self.mapSizeBytes = mapSizeBytes
        self.durability = durability
        self.relaxedSyncInterval = relaxedSyncInterval
        self.sweepInterval = sweepInterval
        self.retention = retention
        self.maximumStorageSeconds = maximumStorageSeconds
        self.clock = clock
    }

    /// The wall clock in milliseconds since the UNIX epoch.
    @Sendable
    public static func systemClock() -> Int64 {
        Int64((Date().timeIntervalSince1970 * 1000).rounded(.down))
    }
}

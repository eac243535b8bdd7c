import NIOCore
import APNsCore
import APNsStore

/// Everything the emulator needs to start, with the defaults `apns-emulator serve` uses.
public struct EmulatorConfiguration: Sendable {
    /// The address every listener binds to.
    public var host: String = "127.0.0.1"
    /// HTTP/2 provider API port (APNs' alternative port 2197); 0 picks a free port.
    public var http2Port: Int = 2197
    /// Admin HTTP/1.1 API port; 0 picks a free port.
    public var adminPort: Int = 8197
    /// Device listener port (APNs' own device port 5223); 0 picks a free port.
    public var devicePort: Int = 5223
    /// Legacy binary gateway port (APNs' 2195); 0 picks a free port.
    public var gatewayPort: Int = 2195
    /// Feedback service port (APNs' 2196); 0 picks a free port.
    public var feedbackPort: Int = 2196
    /// A gateway or feedback connection that sends nothing for this long is closed.
    public var idleTimeout: Duration = .seconds(3600)
    /// Where LMDB keeps its files.
    public var dataDirectory: String = ".apns-emulator"
    /// The server certificate (PEM) providers see, and its private key.
    public var certificatePath: String = "certs/server.pem"
    public var privateKeyPath: String = "certs/server-key.pem"
    /// Where development certificates are generated when the two files above are missing.
    public var certificatesDirectory: String = "certs"
    public var durability: Durability = .durable
    /// LMDB map size: the most the store can hold.
    public var mapSizeBytes: Int = 4 << 30
    /// Which tokens a push may go to.
    public var tokenPolicy: TokenPolicy = .open
    /// What an offline device's queue keeps.
    public var storagePolicy: StoragePolicy = .all
    /// The most notifications one device queue holds under the `all` policy.
    public var maximumQueuedPerDevice: Int = 1000
    /// The longest a notification is kept, whatever its expiration (APNs: 30 days).
    public var maximumExpirationSeconds: Int64 = 30 * 86_400
    /// How many delivered, expired, discarded or dropped notifications are kept for inspection.
    public var deliveredLogSize: Int = 10_000
    public var environment: APNsEnvironment = .development
    /// How long graceful shutdown waits for a connection's unfinished requests before closing it.
    public var shutdownGrace: Duration = .seconds(10)
    /// Who may push; accepts every provider until authentication is configured.
    public var authenticator: any ProviderAuthenticator = AcceptingAuthenticator()
    /// Event-loop threads for the listeners (defaults to the number of cores).
    public var eventLoopThreads: Int = System.coreCount
    /// Milliseconds since the UNIX epoch; tests replace it.
    public var clock: @Sendable () -> Int64 = StoreConfiguration.systemClock

    public init() {}

    /// The store settings that follow from this configuration.
    public var storeConfiguration: StoreConfiguration {
        var configuration = StoreConfiguration(
            directory: self.dataDirectory,
            mapSizeBytes: self.mapSizeBytes,
            durability: self.durability,
            logLimit: self.deliveredLogSize,
            maximumStorageSeconds: self.maximumExpirationSeconds,
            clock: self.clock
        )
        configuration.tokenPolicy = self.tokenPolicy
        configuration.storagePolicy = self.storagePolicy
        configuration.maximumQueuedPerDevice = self.maximumQueuedPerDevice
        return configuration
    }
}

import APNsAuth
import APNsCore
import APNsDevice
import APNsStore
import NIOCore

/// Everything the emulator needs to start, with the defaults `apns-emulator serve` uses.
public struct EmulatorConfiguration: Sendable {
    /// The address every listener binds to.
    public var host: String = "127.0.0.1"
    /// HTTP/2 provider API port (APNs' alternative port 2197), serving ``environment`` (the
    /// sandbox by default); 0 picks a free port.
    public var http2Port: Int = 2197
    /// The production endpoint's HTTP/2 provider API port (Apple's `api.push.apple.com`); 0
    /// picks a free port, nil opens none.
    public var productionHTTP2Port: Int? = 2297
    /// Admin HTTP/1.1 API port; 0 picks a free port.
    public var adminPort: Int = 8197
    /// Device listener port (APNs' own device port 5223); 0 picks a free port.
    public var devicePort: Int = 5223
    /// Legacy binary gateway port (APNs' 2195); 0 picks a free port.
    public var gatewayPort: Int = 2195
    /// Feedback service port (APNs' 2196); 0 picks a free port.
    public var feedbackPort: Int = 2196
    /// Channel management port (Apple's own 2195/2196 are the gateway's and feedback's here);
    /// 0 picks a free port.
    public var channelsPort: Int = 2198
    /// The provider API over cleartext HTTP/2 (prior knowledge, no TLS), for client libraries and
    /// proxies in test set-ups that speak it; nil (the default) opens no such port, 0 picks a
    /// free one. The same validation, and `authorization` still checked under `--auth strict`.
    public var h2cPort: Int?
    /// The Web Push service's port (HTTPS, HTTP/2 and HTTP/1.1), which every subscription's
    /// endpoint names: fixed like every other listener's, so that an endpoint an application server
    /// saved still reaches the service after a restart (Apple's endpoints do not move); 0 picks a
    /// free one.
    public var webPushPort: Int = 2199
    /// A gateway or feedback connection that sends nothing for this long is closed.
    public var idleTimeout: Duration = .seconds(3600)
    /// An HTTP/2 provider connection that sends nothing for this long gets GOAWAY IdleTimeout.
    public var http2IdleTimeout: Duration = .seconds(3600)
    /// A device connection that sends nothing (not even a ping) for this long is closed.
    public var deviceIdleTimeout: Duration = .seconds(3600)
    /// A connection to a TLS port whose handshake is not done after this long is closed.
    public var handshakeTimeout: Duration = .seconds(10)
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
    /// This emulator's shard among several behind HAProxy (`--shard K/N`): the tokens it issues map to it.
    public var shard: Shard?
    /// Every shard's admin API address (host:port), in shard order, this one's included
    /// (`--cluster-peers`): lists, waits, events, metrics and the inbox merge them, per-token and
    /// per-notification routes go to the owning shard, broadcasts reach every shard's subscribers.
    public var clusterPeers: [String] = []
    /// What an offline device's queue keeps.
    public var storagePolicy: StoragePolicy = .latest
    /// The most notifications one device queue holds under the `all` policy.
    public var maximumQueuedPerDevice: Int = 1000
    /// The longest a notification is kept, whatever its expiration (APNs: 30 days).
    public var maximumExpirationSeconds: Int64 = 30 * 86_400
    /// How much history (notifications that left their queues, rejected requests) the store keeps.
    public var retention: Retention = .standard
    /// How many of the newest notifications (accepted or rejected) the admin API's journal holds
    /// whole in memory; older ones it indexes in small fixed entries and reads back from the store.
    /// Few: a notification held whole is memory the allocator must keep apart for as long, which
    /// cost a load test a fifth of its CPU per request at 10,000.
    public var journalSize: Int = 256
    public var environment: APNsEnvironment = .development
    /// How long graceful shutdown waits for a connection's unfinished requests before closing it.
    public var shutdownGrace: Duration = .seconds(10)
    /// Whether providers must authenticate (by client certificate or provider token).
    public var auth: AuthMode = .none
    /// CA certificates (PEM files) provider certificates may chain to, besides the development CA.
    public var providerCAPaths: [String] = []
    /// The provider-token key store: one `<key id>.json` per key (`apns-emulator keys create`).
    public var keysDirectory: String = "keys"
    /// A provider token older than this is `ExpiredProviderToken` (APNs: one hour).
    public var tokenLifetime: Duration = .seconds(3600)
    /// A connection may change its provider token at most this often (APNs: 20 minutes).
    public var tokenUpdateInterval: Duration = .seconds(1200)
    /// Event-loop threads for the listeners (defaults to the number of cores).
    public var eventLoopThreads: Int = System.coreCount
    /// See ``StoreConfiguration/writerSpin``: off unless asked for (`serve` asks for 300 µs).
    public var writerSpin: Duration = .zero
    /// Hand every accepted push to this iOS Simulator too (`booted` or a UDID) with
    /// `xcrun simctl push`; nil: do not.
    public var simulatorDevice: String?
    /// A summary of pushes every few seconds (info) and a line per push (debug) on the console
    /// (`serve --quiet` turns them off).
    public var logPushes = false
    /// The report card's exam: each provider meets a 429, a 503, a 410, a GOAWAY and an expired
    /// provider token among its first requests (``ProviderExam``).
    public var providerExam = false
    /// Live Activities' limits and budgets (Apple publishes none; these are settings).
    public var activityLimits = ActivityLimits()
    /// The token the admin API and the web inbox require (`Authorization: Bearer`, or the login
    /// page's cookie); nil asks for none, unless the listeners bind beyond loopback: then the
    /// emulator makes one at start (``Emulator/configuration`` holds it).
    public var adminToken: String?
    /// Whether a device's hello must bring the admin token (`--require-device-token`), as APNs
    /// asks a device for its certificate; off, devices connect by id as they always have.
    public var devicesNeedAdminToken = false
    /// Origins (`https://dash.example.test:8443`) whose pages may call the admin API, with CORS.
    public var adminAllowedOrigins: [String] = []
    /// Host names the admin API answers besides its IP addresses and localhost (`.example.test`
    /// for every name under it, `*` for any): the DNS rebinding guard's list.
    public var adminAllowedHosts: [String] = []
    /// Milliseconds since the UNIX epoch; tests replace it.
    public var clock: @Sendable () -> Int64 = StoreConfiguration.systemClock

    public init() {}

    /// The development CA: the server certificate chains to it, and provider certificates may.
    public var developmentCAPath: String { self.certificatesDirectory + "/ca.pem" }

    /// Who may use the admin API: the token, the allowed origins, and the allowed host names
    /// with the names this emulator is given (`--host`) and its cluster peers' (they ask it by those).
    public var adminAccess: AdminAccess {
        let given = [self.host] + self.clusterPeers.map { String($0.split(separator: ":").first ?? "") }
        let names = given.filter { !$0.isEmpty && !AdminAccess.isAddress(AdminAccess.hostName($0)) }
        return AdminAccess(
            token: self.adminToken, allowedOrigins: self.adminAllowedOrigins, allowedHosts: self.adminAllowedHosts + names)
    }

    /// Whether the admin token was made because none was given and the admin API is reachable
    /// from elsewhere.
    public var needsAdminToken: Bool { self.adminToken == nil && !AdminAccess.isLoopback(self.host) }

    /// The per-connection authentication rules that follow from this configuration.
    var authRules: ProviderAuthStateMachine.Rules {
        ProviderAuthStateMachine.Rules(
            tokenLifetime: self.tokenLifetime.components.seconds,
            tokenUpdateInterval: self.tokenUpdateInterval.components.seconds,
            environment: self.environment
        )
    }

    /// The store settings that follow from this configuration.
    public var storeConfiguration: StoreConfiguration {
        var configuration = StoreConfiguration(
            directory: self.dataDirectory,
            mapSizeBytes: self.mapSizeBytes,
            durability: self.durability,
            retention: self.retention,
            maximumStorageSeconds: self.maximumExpirationSeconds,
            clock: self.clock
        )
        configuration.tokenPolicy = self.tokenPolicy
        configuration.defaultEnvironment = self.environment
        configuration.storagePolicy = self.storagePolicy
        configuration.maximumQueuedPerDevice = self.maximumQueuedPerDevice
        configuration.writerSpin = self.writerSpin
        return configuration
    }
}

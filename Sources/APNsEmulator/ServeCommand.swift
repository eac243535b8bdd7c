import APNsAuth
import APNsCore
import APNsServer
import APNsStore
import ArgumentParser
import Foundation
import Logging
import NIOCore

/// `apns-emulator serve`: run every listener until SIGINT or SIGTERM.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run the emulator (the default command). Every option has an environment-variable twin.",
        version: EmulatorVersion.string
    )

    /// The configuration's defaults are the options' defaults: each is written once, there.
    static let defaults = EmulatorConfiguration()

    @Option(help: "Address every listener binds to. (env: \(EnvironmentTwins.variable(for: "--host")))")
    var host = Self.defaults.host

    @Option(
        name: .customLong("http2-port"),
        help: "HTTP/2 provider API port; 0 picks a free one. (env: \(EnvironmentTwins.variable(for: "--http2-port")))")
    var http2Port = Self.defaults.http2Port

    @Option(
        name: .customLong("admin-port"),
        help: "Admin HTTP/1.1 API port; 0 picks a free one. (env: \(EnvironmentTwins.variable(for: "--admin-port")))")
    var adminPort = Self.defaults.adminPort

    @Option(
        name: .customLong("device-port"),
        help:
            "Device listener port (emulated devices); 0 picks a free one. (env: \(EnvironmentTwins.variable(for: "--device-port")))"
    )
    var devicePort = Self.defaults.devicePort

    @Option(
        name: .customLong("gateway-port"),
        help:
            "Legacy binary gateway port (commands 0, 1, 2); 0 picks a free one. (env: \(EnvironmentTwins.variable(for: "--gateway-port")))"
    )
    var gatewayPort = Self.defaults.gatewayPort

    @Option(
        name: .customLong("feedback-port"),
        help: "Feedback service port; 0 picks a free one. (env: \(EnvironmentTwins.variable(for: "--feedback-port")))")
    var feedbackPort = Self.defaults.feedbackPort

    @Option(
        name: .customLong("channels-port"),
        help:
            "Broadcast channel management port (also served on the HTTP/2 port); 0 picks a free one. (env: \(EnvironmentTwins.variable(for: "--channels-port")))"
    )
    var channelsPort = Self.defaults.channelsPort

    @OptionGroup(title: "More front doors")
    var moreDoors: MoreFrontDoors

    @Option(
        name: .customLong("idle-timeout"),
        help:
            "Seconds after which a silent gateway or feedback connection is closed. (env: \(EnvironmentTwins.variable(for: "--idle-timeout")))"
    )
    var idleTimeout = Self.defaults.idleTimeout.seconds

    @Option(
        name: .customLong("handshake-timeout"),
        help:
            "Seconds a connection to a TLS port has to finish its handshake before it is closed. (env: \(EnvironmentTwins.variable(for: "--handshake-timeout")))"
    )
    var handshakeTimeout = Self.defaults.handshakeTimeout.seconds

    @Option(
        name: .customLong("http2-idle-timeout"),
        help:
            "Seconds after which a silent HTTP/2 provider connection gets GOAWAY IdleTimeout and is closed. (env: \(EnvironmentTwins.variable(for: "--http2-idle-timeout")))"
    )
    var http2IdleTimeout = Self.defaults.http2IdleTimeout.seconds

    @Option(
        name: .customLong("device-idle-timeout"),
        help:
            "Seconds after which a silent device connection (one that does not even ping) is closed. (env: \(EnvironmentTwins.variable(for: "--device-idle-timeout")))"
    )
    var deviceIdleTimeout = Self.defaults.deviceIdleTimeout.seconds

    @Option(
        name: .customLong("data-dir"), help: "Directory of the LMDB store. (env: \(EnvironmentTwins.variable(for: "--data-dir")))"
    )
    var dataDirectory = Self.defaults.dataDirectory

    @Option(
        name: .customLong("certs-dir"),
        help:
            "Where the development CA and server certificate live, generated if missing. (env: \(EnvironmentTwins.variable(for: "--certs-dir")))"
    )
    var certificatesDirectory = Self.defaults.certificatesDirectory

    @Option(
        name: .customLong("tls-cert"),
        help:
            "Server certificate chain (PEM). (default: <certs-dir>/server.pem) (env: \(EnvironmentTwins.variable(for: "--tls-cert")))"
    )
    var certificatePath: String?

    @Option(
        name: .customLong("tls-key"),
        help:
            "Server private key (PEM). (default: <certs-dir>/server-key.pem) (env: \(EnvironmentTwins.variable(for: "--tls-key")))"
    )
    var privateKeyPath: String?

    @Option(
        help:
            "durable: a 200 is sent only after the commit is synced to disk; relaxed: periodic sync, for load tests. (env: \(EnvironmentTwins.variable(for: "--durability")))"
    )
    var durability = Self.defaults.durability

    @Option(
        name: .customLong("map-size"),
        help: "LMDB map size in MiB: the most the store holds. (env: \(EnvironmentTwins.variable(for: "--map-size")))")
    var mapSizeMiB = Self.defaults.mapSizeBytes >> 20

    @Option(
        name: .customLong("tokens"),
        help:
            "open: any well-formed token is accepted and its queue waits for a device; registered: unknown tokens get 400 BadDeviceToken, as APNs. (env: \(EnvironmentTwins.variable(for: "--tokens")))"
    )
    var tokenPolicy = Self.defaults.tokenPolicy

    @Option(
        help:
            "This emulator's shard among N behind HAProxy, as K/N (K from 0): the tokens it issues map to it (apns-emulator cluster haproxy-config). (env: \(EnvironmentTwins.variable(for: "--shard")))"
    )
    var shard: Shard?

    @Option(
        name: .customLong("cluster-peers"),
        help:
            "With --shard K/N: every shard's admin address (host:port), in shard order, this one's included. Lists, waits, events, metrics and the web inbox then show every shard; per-token and per-notification routes reach the owning shard; broadcasts reach every shard's subscribers. (env: \(EnvironmentTwins.variable(for: "--cluster-peers")))"
    )
    var clusterPeers: String?

    @Option(
        name: .customLong("storage-policy"),
        help:
            "all: queue every notification (capped per device); latest: keep only the most recent per topic per offline device, as APNs. (env: \(EnvironmentTwins.variable(for: "--storage-policy")))"
    )
    var storagePolicy = Self.defaults.storagePolicy

    @Option(
        name: .customLong("max-queued-per-device"),
        help:
            "Queue cap per device token under --storage-policy all; the oldest are dropped. (env: \(EnvironmentTwins.variable(for: "--max-queued-per-device")))"
    )
    var maximumQueuedPerDevice = Self.defaults.maximumQueuedPerDevice

    @Option(
        name: .customLong("max-expiration"),
        help:
            "Longest a notification is kept, in seconds, whatever its apns-expiration (30 days, as APNs). (env: \(EnvironmentTwins.variable(for: "--max-expiration")))"
    )
    var maximumExpiration = Self.defaults.maximumExpirationSeconds

    @Option(
        name: .customLong("delivered-log-size"),
        help:
            "How many delivered, expired, discarded or dropped notifications are kept for inspection. (env: \(EnvironmentTwins.variable(for: "--delivered-log-size")))"
    )
    var deliveredLogSize = Self.defaults.deliveredLogSize

    @Option(
        name: .customLong("journal-size"),
        help:
            "How many notifications, accepted or rejected, the admin API's journal keeps (the newest). (env: \(EnvironmentTwins.variable(for: "--journal-size")))"
    )
    var journalSize = Self.defaults.journalSize

    @Option(
        help:
            "development (answers carry apns-unique-id) or production. (env: \(EnvironmentTwins.variable(for: "--environment")))")
    var environment = Self.defaults.environment

    @Option(
        help:
            "none: any provider, any topic; strict: every provider authenticates by client certificate or provider token, on every interface. (env: \(EnvironmentTwins.variable(for: "--auth")))"
    )
    var auth = Self.defaults.auth

    @Option(
        name: .customLong("provider-ca"),
        help:
            "A PEM file of CA certificates provider certificates may chain to, besides <certs-dir>/ca.pem; repeatable. (env: \(EnvironmentTwins.variable(for: "--provider-ca")))"
    )
    var providerCAPaths: [String] = []

    @Option(
        name: .customLong("keys"),
        help:
            "Provider-token key store, written by `keys create` and `keys import`. (env: \(EnvironmentTwins.variable(for: "--keys")))"
    )
    var keysDirectory = Self.defaults.keysDirectory

    @Option(
        name: .customLong("token-lifetime"),
        help:
            "Seconds after its iat a provider token is ExpiredProviderToken (one hour, as APNs). (env: \(EnvironmentTwins.variable(for: "--token-lifetime")))"
    )
    var tokenLifetime = Self.defaults.tokenLifetime.components.seconds

    @Option(
        name: .customLong("token-update-interval"),
        help:
            "Seconds a connection must keep a provider token before changing it, else TooManyProviderTokenUpdates (20 minutes, as APNs). (env: \(EnvironmentTwins.variable(for: "--token-update-interval")))"
    )
    var tokenUpdateInterval = Self.defaults.tokenUpdateInterval.components.seconds

    @Option(help: "Event-loop threads. (default: number of cores) (env: \(EnvironmentTwins.variable(for: "--threads")))")
    var threads: Int?

    @Option(
        name: .customLong("writer-spin"),
        help:
            "Microseconds the store writer keeps looking for work before it sleeps, while requests follow closely: less latency one request at a time (300 takes -c1 -m1 from ~255 to ~170 us), a core's time while it looks. Off by default: it takes CPU from clients on the same machine. (env: \(EnvironmentTwins.variable(for: "--writer-spin")))"
    )
    var writerSpin = 0

    @Option(
        name: .customLong("log-level"),
        help: "trace, debug, info, notice, warning, error or critical. (env: \(EnvironmentTwins.variable(for: "--log-level")))")
    var logLevel = "info"

    @Option(
        name: .customLong("seed"),
        help:
            "A JSON or YAML file of the world to start with, applied before the first listener opens: devices with their apps' settings and power, provider keys and certificate authorities, broadcast channels, fault rules, the clock (docs/seed.schema.json; what export writes). (env: \(EnvironmentTwins.variable(for: "--seed")))"
    )
    var seedFile: String?

    @Option(
        name: .customLong("config"),
        help:
            "The same as --seed (its first name; its files are seed files). (env: \(EnvironmentTwins.variable(for: "--config")))"
    )
    var configFile: String?

    @Flag(
        name: .customLong("exit-on-stdin-close"),
        help:
            "Shut down gracefully when standard input reaches its end: a test fixture holds the other end of a pipe, so the emulator ends with the test runner however the runner ends (killed included). (env: \(EnvironmentTwins.variable(for: "--exit-on-stdin-close")))"
    )
    var exitOnStdinClose = false

    @Option(
        name: .customLong("export-on-exit"),
        help:
            "At shutdown, write the world to this file as a seed document (what export writes). (env: \(EnvironmentTwins.variable(for: "--export-on-exit")))"
    )
    var exportOnExit: String?

    @Option(
        name: .customLong("ports-file"),
        help:
            "Write every listener's address to this JSON file once all are bound (for a test that starts the emulator on port 0). (env: \(EnvironmentTwins.variable(for: "--ports-file")))"
    )
    var portsFile: String?

    @Flag(
        help:
            "Keep the store in a new temporary directory, removed on exit: nothing is inherited from an earlier run. (env: \(EnvironmentTwins.variable(for: "--ephemeral")))"
    )
    var ephemeral = false

    @Option(
        name: .customLong("forward-to-simulator"),
        help:
            "Also hand every accepted push to this iOS Simulator (booted, or a device UDID) with `xcrun simctl push` (macOS); the outcome is in the journal and the log. (env: \(EnvironmentTwins.variable(for: "--forward-to-simulator")))"
    )
    var simulatorDevice: String?

    @OptionGroup(title: "Live Activities")
    var activities: ActivityOptions

    @Flag(
        help:
            "No line per push on the console (accepted or rejected); other messages stay. (env: \(EnvironmentTwins.variable(for: "--quiet")))"
    )
    var quiet = false
}

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

    // The help lists titled groups in this order, the untitled options last: address and
    // ports, store and authentication, then the rest.
    @OptionGroup(title: "Address and ports")
    var addresses: ServeAddresses

    @OptionGroup(title: "Store and authentication")
    var store: ServeStore
    @OptionGroup(title: "Admin API access")
    var adminAccess: ServeAdminAccess
    @OptionGroup(title: "More front doors")
    var moreDoors: MoreFrontDoors

    @Option(
        name: .customLong("idle-timeout"),
        help:
            "How long a silent gateway or feedback connection stays open (1h, 90m, 10s, or seconds). (env: \(EnvironmentTwins.variable(for: "--idle-timeout")))"
    )
    var idleTimeout = DurationArgument(Self.defaults.idleTimeout)

    @Option(
        name: .customLong("handshake-timeout"),
        help:
            "How long a connection to a TLS port has to finish its handshake (10s, or seconds). (env: \(EnvironmentTwins.variable(for: "--handshake-timeout")))"
    )
    var handshakeTimeout = DurationArgument(Self.defaults.handshakeTimeout)

    @Option(
        name: .customLong("http2-idle-timeout"),
        help:
            "How long a silent HTTP/2 provider connection stays open before GOAWAY IdleTimeout (1h, 90m, or seconds). (env: \(EnvironmentTwins.variable(for: "--http2-idle-timeout")))"
    )
    var http2IdleTimeout = DurationArgument(Self.defaults.http2IdleTimeout)

    @Option(
        name: .customLong("device-idle-timeout"),
        help:
            "How long a silent device connection (one that does not even ping) stays open (1h, 90m, or seconds). (env: \(EnvironmentTwins.variable(for: "--device-idle-timeout")))"
    )
    var deviceIdleTimeout = DurationArgument(Self.defaults.deviceIdleTimeout)

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
        name: .customLong("retain"),
        help:
            "How much history the store keeps, across restarts: notifications that left their queues and rejected requests. Comma-separated limits, any of a count (500000), a size (512MiB, 2GiB) and an age (90m, 24h, 7d); past any of them the oldest go first. Queued notifications are never dropped for it. (default: 1000000,2GiB) (env: \(EnvironmentTwins.variable(for: "--retain")))"
    )
    var retain: String?

    /// The count of --retain under its earlier name, for scripts that still pass it.
    @Option(name: .customLong("delivered-log-size"), help: .hidden)
    var deliveredLogSize: Int?

    @Option(
        name: .customLong("journal-size"),
        help:
            "How long, in entries, the admin API's journal holds a refused request or a notification dropped for room whole in memory while the store has no record of it; every notification, as long as --retain keeps it, is indexed and read back from the store. (env: \(EnvironmentTwins.variable(for: "--journal-size")))"
    )
    var journalSize = Self.defaults.journalSize

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
            "No summary of pushes every 5 s (info) and no line per push (debug) on the console; other messages stay. (env: \(EnvironmentTwins.variable(for: "--quiet")))"
    )
    var quiet = false

    @Flag(
        name: .customLong("provider-exam"),
        help:
            "The report card's exam: each provider meets, among its first requests, a 429, a 503, a 410 for a token, a GOAWAY and (token-based) an expired provider token, each journaled as the exam's, so that GET /api/v1/providers/<id>/report judges how it reacts. (env: \(EnvironmentTwins.variable(for: "--provider-exam")))"
    )
    var providerExam = false
}

import APNsAuth
import APNsCore
import APNsServer
import APNsStore
import ArgumentParser

/// `serve`'s store and provider authentication: where notifications are kept, how long, and who
/// may push; second in `--help`.
struct ServeStore: ParsableArguments {
    @Option(
        name: .customLong("data-dir"), help: "Directory of the LMDB store. (env: \(EnvironmentTwins.variable(for: "--data-dir")))"
    )
    var dataDirectory = ServeCommand.defaults.dataDirectory

    @Option(
        help:
            "durable: a 200 is sent only after the commit is synced to disk; relaxed: periodic sync, for load tests. (env: \(EnvironmentTwins.variable(for: "--durability")))"
    )
    var durability = ServeCommand.defaults.durability

    @Option(
        name: .customLong("map-size"),
        help: "LMDB map size in MiB: the most the store holds. (env: \(EnvironmentTwins.variable(for: "--map-size")))")
    var mapSizeMiB = ServeCommand.defaults.mapSizeBytes >> 20

    @Option(
        name: .customLong("storage-policy"),
        help:
            "latest: keep one notification per app (topic) while its device is offline, the newest replacing the older, as APNs does; all: queue every one (up to --max-queued-per-device), to see everything a provider sent. (env: \(EnvironmentTwins.variable(for: "--storage-policy")))"
    )
    var storagePolicy = ServeCommand.defaults.storagePolicy

    @Option(
        name: .customLong("max-queued-per-device"),
        help:
            "Queue cap per device token under --storage-policy all; the oldest are dropped. (env: \(EnvironmentTwins.variable(for: "--max-queued-per-device")))"
    )
    var maximumQueuedPerDevice = ServeCommand.defaults.maximumQueuedPerDevice

    @Option(
        name: .customLong("max-expiration"),
        help:
            "Longest a notification is kept, whatever its apns-expiration (30d, as APNs; 12h, 90m, or seconds). (env: \(EnvironmentTwins.variable(for: "--max-expiration")))"
    )
    var maximumExpiration = DurationArgument(seconds: ServeCommand.defaults.maximumExpirationSeconds)

    @Option(
        help:
            "The environment of --http2-port, the gateway, feedback, h2c and channel ports: development (the sandbox; answers carry apns-unique-id) or production. --production-http2-port serves production either way, and a request whose :authority is one of Apple's hosts is judged in that host's environment. (env: \(EnvironmentTwins.variable(for: "--environment")))"
    )
    var environment = ServeCommand.defaults.environment

    @Option(
        help:
            "none: any provider, any topic; strict: every provider authenticates by client certificate or provider token, on every interface. (env: \(EnvironmentTwins.variable(for: "--auth")))"
    )
    var auth = ServeCommand.defaults.auth

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
    var keysDirectory = ServeCommand.defaults.keysDirectory

    @Option(
        name: .customLong("token-lifetime"),
        help:
            "How long after its iat a provider token is ExpiredProviderToken (1h, as APNs; or seconds). (env: \(EnvironmentTwins.variable(for: "--token-lifetime")))"
    )
    var tokenLifetime = DurationArgument(ServeCommand.defaults.tokenLifetime)

    @Option(
        name: .customLong("token-update-interval"),
        help:
            "How long a connection must keep a provider token before changing it, else TooManyProviderTokenUpdates (20m, as APNs; or seconds). (env: \(EnvironmentTwins.variable(for: "--token-update-interval")))"
    )
    var tokenUpdateInterval = DurationArgument(ServeCommand.defaults.tokenUpdateInterval)
}

import APNsServer
import ArgumentParser

/// `serve`'s doors besides Apple's own: the provider API over cleartext HTTP/2, and the Web Push
/// service Safari and Home Screen web apps subscribe with.
struct MoreFrontDoors: ParsableArguments {
    @Option(
        name: .customLong("h2c-port"),
        help:
            "The provider API over cleartext HTTP/2 (prior knowledge, no TLS) on this port too, for clients and proxies in test set-ups that speak it; 0 picks a free one. Same validation; --auth strict still checks authorization. (default: off) (env: \(EnvironmentTwins.variable(for: "--h2c-port")))"
    )
    var h2cPort: Int?

    @Option(
        name: .customLong("web-push-port"),
        help:
            "The Web Push service's port (HTTPS, HTTP/2 and HTTP/1.1) that Safari and Home Screen web apps' subscriptions name in their endpoints, so a fixed one keeps them valid across restarts; 0 picks a free one. (env: \(EnvironmentTwins.variable(for: "--web-push-port")))"
    )
    var webPushPort = ServeCommand.defaults.webPushPort
}

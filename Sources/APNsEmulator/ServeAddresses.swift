import APNsAuth
import APNsCore
import APNsServer
import APNsStore
import ArgumentParser

/// `serve`'s address and ports: the first options a newcomer needs, first in `--help`.
struct ServeAddresses: ParsableArguments {
    @Option(help: "Address every listener binds to. (env: \(EnvironmentTwins.variable(for: "--host")))")
    var host = ServeCommand.defaults.host

    @Option(
        name: .customLong("http2-port"),
        help:
            "HTTP/2 provider API port of --environment (development by default: the sandbox, api.sandbox.push.apple.com); 0 picks a free one. (env: \(EnvironmentTwins.variable(for: "--http2-port")))"
    )
    var http2Port = ServeCommand.defaults.http2Port

    @Option(
        name: .customLong("production-http2-port"),
        help:
            "HTTP/2 provider API port of the production endpoint (api.push.apple.com): production tokens, certificates and keys; 0 picks a free one. (env: \(EnvironmentTwins.variable(for: "--production-http2-port")))"
    )
    var productionHTTP2Port = ServeCommand.defaults.productionHTTP2Port ?? 2297

    @Option(
        name: .customLong("admin-port"),
        help: "Admin HTTP/1.1 API port; 0 picks a free one. (env: \(EnvironmentTwins.variable(for: "--admin-port")))")
    var adminPort = ServeCommand.defaults.adminPort

    @Option(
        name: .customLong("device-port"),
        help:
            "Device listener port (emulated devices); 0 picks a free one. (env: \(EnvironmentTwins.variable(for: "--device-port")))"
    )
    var devicePort = ServeCommand.defaults.devicePort

    @Option(
        name: .customLong("gateway-port"),
        help:
            "Legacy binary gateway port (commands 0, 1, 2); 0 picks a free one. (env: \(EnvironmentTwins.variable(for: "--gateway-port")))"
    )
    var gatewayPort = ServeCommand.defaults.gatewayPort

    @Option(
        name: .customLong("feedback-port"),
        help: "Feedback service port; 0 picks a free one. (env: \(EnvironmentTwins.variable(for: "--feedback-port")))")
    var feedbackPort = ServeCommand.defaults.feedbackPort

    @Option(
        name: .customLong("channels-port"),
        help:
            "Broadcast channel management port (also served on the HTTP/2 port); 0 picks a free one. (env: \(EnvironmentTwins.variable(for: "--channels-port")))"
    )
    var channelsPort = ServeCommand.defaults.channelsPort
}

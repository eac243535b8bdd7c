import APNsAuth
import APNsCore
import APNsWire
import NIOCore
import NIOSSL

extension TLSListener {
    /// The legacy binary gateway (commands 0, 1 and 2 over TLS, APNs' port 2195), which is also
    /// where Apple serves channel management in the development environment: a client that
    /// offers ALPN h2 gets channel management (`channels`), one without ALPN the gateway.
    static func binaryGateway(
        _ listener: Listener,
        sslContext: NIOSSLContext,
        context: GatewayContext,
        channels: ProviderContext,
        onBound: @escaping @Sendable (SocketAddress) -> Void
    ) -> TLSListener {
        var gateway = TLSListener(listener: listener, sslContext: sslContext, onBound: onBound) { channel, handshake in
            if handshake.isHTTP2 {
                return try HTTP2ProviderListener.channelManagement(channel: channel, handshake: handshake, context: channels)
            }
            // gateway.push.apple.com by SNI is production, gateway.sandbox.push.apple.com the sandbox.
            var connection = context
            connection.environment = handshake.environment(or: context.environment)
            let provider = try channels.binaryProvider(
                handshake, on: channel, listener: "gateway", environment: connection.environment)
            // A certificate without a topic is status 3 (missing topic) on every notification.
            let topic = provider.map { $0.bundleID ?? "" }
            let pipeline = channel.pipeline.syncOperations
            try pipeline.addHandler(ByteToMessageHandler(BinaryGatewayDecoder()))
            try pipeline.addHandler(GatewaySessionHandler(context: connection, topic: topic))
            context.inspection.metrics.providerConnection(.binary, 1)
            channel.closeFuture.whenComplete { _ in context.inspection.metrics.providerConnection(.binary, -1) }
        }
        gateway.readsServerName = true
        return gateway
    }
}

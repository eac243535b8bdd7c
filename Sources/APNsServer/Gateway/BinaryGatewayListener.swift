import APNsAuth
import APNsCore
import APNsWire
import NIOCore
import NIOSSL

extension TLSListener {
    /// The legacy binary gateway (commands 0, 1 and 2 over TLS, APNs' port 2195).
    static func binaryGateway(
        _ listener: Listener,
        sslContext: NIOSSLContext,
        context: GatewayContext,
        onBound: @escaping @Sendable (SocketAddress) -> Void
    ) -> TLSListener {
        TLSListener(listener: listener, sslContext: sslContext, onBound: onBound) { channel, certificate in
            let provider = try ProviderCertificate.binaryProvider(
                certificate, auth: context.auth, environment: context.environment, listener: "gateway")
            // A certificate without a topic is status 3 (missing topic) on every notification.
            let topic = provider.map { $0.bundleID ?? "" }
            let pipeline = channel.pipeline.syncOperations
            try pipeline.addHandler(ByteToMessageHandler(BinaryGatewayDecoder()))
            try pipeline.addHandler(GatewaySessionHandler(context: context, topic: topic))
            context.inspection.metrics.providerConnection(.binary, 1)
            channel.closeFuture.whenComplete { _ in context.inspection.metrics.providerConnection(.binary, -1) }
        }
    }
}

import APNsWire
import NIOCore
import NIOSSL

extension TLSListener {
    /// The legacy binary gateway (commands 0, 1 and 2 over TLS, APNs' port 2195).
    static func binaryGateway(
        _ listener: Listener,
        sslContext: NIOSSLContext,
        context: GatewayContext,
        idleTimeout: TimeAmount,
        onBound: @escaping @Sendable (SocketAddress) -> Void
    ) -> TLSListener {
        TLSListener(listener: listener, sslContext: sslContext, idleTimeout: idleTimeout, onBound: onBound) { channel in
            let pipeline = channel.pipeline.syncOperations
            try pipeline.addHandler(ByteToMessageHandler(BinaryGatewayDecoder()))
            try pipeline.addHandler(GatewaySessionHandler(context: context))
        }
    }
}

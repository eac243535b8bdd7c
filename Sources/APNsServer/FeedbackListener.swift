import NIOCore
import NIOSSL

extension TLSListener {
    /// The feedback service (APNs' port 2196): tokens that became invalid, read once.
    static func feedback(
        _ listener: Listener,
        sslContext: NIOSSLContext,
        relay: Relay,
        idleTimeout: TimeAmount,
        onBound: @escaping @Sendable (SocketAddress) -> Void
    ) -> TLSListener {
        let logger = listener.logger
        // A provider that never finishes the handshake would hold the tuples' write open.
        return TLSListener(listener: listener, sslContext: sslContext, idleTimeout: idleTimeout, onBound: onBound) { channel in
            try channel.pipeline.syncOperations.addHandler(FeedbackSessionHandler(relay: relay, logger: logger))
        }
    }
}

import APNsAuth
import APNsCore
import NIOCore
import NIOSSL

extension TLSListener {
    /// The feedback service (APNs' port 2196): tokens that became invalid, read once. In strict
    /// mode a provider reads only the tokens of its certificate's topics.
    static func feedback(
        _ listener: Listener,
        sslContext: NIOSSLContext,
        relay: Relay,
        auth: AuthMode,
        environment: APNsEnvironment,
        onBound: @escaping @Sendable (SocketAddress) -> Void
    ) -> TLSListener {
        let logger = listener.logger
        // A provider that never finishes the handshake would hold the tuples' write open.
        return TLSListener(listener: listener, sslContext: sslContext, onBound: onBound) { channel, certificate in
            let provider = try ProviderCertificate.binaryProvider(
                certificate, auth: auth, environment: environment, listener: "feedback")
            let topics = provider.map { Set($0.topics) }
            try channel.pipeline.syncOperations.addHandler(FeedbackSessionHandler(relay: relay, topics: topics, logger: logger))
        }
    }
}

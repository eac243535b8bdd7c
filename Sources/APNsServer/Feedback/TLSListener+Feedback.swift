import APNsAuth
import APNsCore
import NIOCore
import NIOSSL

extension TLSListener {
    /// The feedback service (APNs' port 2196): tokens that became invalid, read once. In strict
    /// mode a provider reads only the tokens of its certificate's topics. 2196 is also where Apple
    /// serves channel management in production: a client that offers ALPN h2 gets that
    /// (`channels`), one without ALPN the feedback service.
    static func feedback(
        _ listener: Listener,
        sslContext: NIOSSLContext,
        relay: Relay,
        reader: StoreReader,
        channels: ProviderContext,
        onBound: @escaping @Sendable (SocketAddress) -> Void
    ) -> TLSListener {
        let logger = listener.logger
        // A provider that never finishes the handshake would hold the tuples' write open.
        var feedback = TLSListener(listener: listener, sslContext: sslContext, onBound: onBound) { channel, handshake in
            if handshake.isHTTP2 {
                return try HTTP2ProviderListener.channelManagement(channel: channel, handshake: handshake, context: channels)
            }
            // feedback.push.apple.com by SNI lists production's tokens, feedback.sandbox.push.apple.com the sandbox's.
            let environment = handshake.environment(or: channels.environment)
            let provider = try channels.binaryProvider(handshake, on: channel, listener: "feedback", environment: environment)
            let topics = provider.map { Set($0.topics) }
            try channel.pipeline.syncOperations.addHandler(
                FeedbackSessionHandler(relay: relay, reader: reader, topics: topics, environment: environment, logger: logger))
        }
        feedback.readsServerName = true
        return feedback
    }
}

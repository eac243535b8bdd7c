import NIOCore
import NIOSSL
import ServiceLifecycle

/// The feedback service (APNs' port 2196): tokens that became invalid, read once.
public final class FeedbackListener: Service {
    private let listener: Listener
    private let sslContext: NIOSSLContext
    private let relay: Relay
    private let idleTimeout: TimeAmount
    private let onBound: @Sendable (SocketAddress) -> Void

    init(
        listener: Listener,
        sslContext: NIOSSLContext,
        relay: Relay,
        idleTimeout: TimeAmount,
        onBound: @escaping @Sendable (SocketAddress) -> Void
    ) {
        self.listener = listener
        self.sslContext = sslContext
        self.relay = relay
        self.idleTimeout = idleTimeout
        self.onBound = onBound
    }

    public func run() async throws {
        let sslContext = self.sslContext
        let relay = self.relay
        let logger = self.listener.logger
        let idleTimeout = self.idleTimeout
        try await self.listener.run(
            initializeChild: { channel in
                channel.eventLoop.makeCompletedFuture {
                    let pipeline = channel.pipeline.syncOperations
                    try pipeline.addHandler(NIOSSLServerHandler(context: sslContext))
                    // A provider that never finishes the handshake would hold the tuples' write open.
                    try pipeline.addHandler(IdleStateHandler(allTimeout: idleTimeout))
                    try pipeline.addHandler(FeedbackSessionHandler(relay: relay, logger: logger))
                }
            },
            onBound: self.onBound
        )
    }
}

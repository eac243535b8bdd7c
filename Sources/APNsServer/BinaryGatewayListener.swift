import APNsWire
import NIOCore
import NIOSSL
import ServiceLifecycle

/// The legacy binary gateway (commands 0, 1 and 2 over TLS, APNs' port 2195).
public final class BinaryGatewayListener: Service {
    private let listener: Listener
    private let sslContext: NIOSSLContext
    private let context: GatewayContext
    private let idleTimeout: TimeAmount
    private let onBound: @Sendable (SocketAddress) -> Void

    init(
        listener: Listener,
        sslContext: NIOSSLContext,
        context: GatewayContext,
        idleTimeout: TimeAmount,
        onBound: @escaping @Sendable (SocketAddress) -> Void
    ) {
        self.listener = listener
        self.sslContext = sslContext
        self.context = context
        self.idleTimeout = idleTimeout
        self.onBound = onBound
    }

    public func run() async throws {
        let sslContext = self.sslContext
        let context = self.context
        let idleTimeout = self.idleTimeout
        try await self.listener.run(
            initializeChild: { channel in
                channel.eventLoop.makeCompletedFuture {
                    let pipeline = channel.pipeline.syncOperations
                    try pipeline.addHandler(NIOSSLServerHandler(context: sslContext))
                    try pipeline.addHandler(IdleStateHandler(readTimeout: idleTimeout))
                    try pipeline.addHandler(ByteToMessageHandler(BinaryGatewayDecoder()))
                    try pipeline.addHandler(GatewaySessionHandler(context: context))
                }
            },
            onBound: self.onBound
        )
    }
}

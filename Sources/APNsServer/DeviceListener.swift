import APNsWire
import Logging
import NIOCore
import NIOSSL
import ServiceLifecycle

/// The device listener: emulated devices' long-lived TLS connections (docs/device-protocol.md).
public final class DeviceListener: Service {
    private let listener: Listener
    private let sslContext: NIOSSLContext
    private let relay: Relay
    private let onBound: @Sendable (SocketAddress) -> Void

    init(listener: Listener, sslContext: NIOSSLContext, relay: Relay, onBound: @escaping @Sendable (SocketAddress) -> Void) {
        self.listener = listener
        self.sslContext = sslContext
        self.relay = relay
        self.onBound = onBound
    }

    public func run() async throws {
        let sslContext = self.sslContext
        let relay = self.relay
        let logger = self.listener.logger
        try await self.listener.run(
            initializeChild: { channel in
                channel.eventLoop.makeCompletedFuture {
                    let pipeline = channel.pipeline.syncOperations
                    try pipeline.addHandler(NIOSSLServerHandler(context: sslContext))
                    try pipeline.addHandler(ByteToMessageHandler(DeviceFrameDecoder()))
                    try pipeline.addHandler(MessageToByteHandler(DeviceFrameEncoder()))
                    try pipeline.addHandler(DeviceSessionHandler(relay: relay, logger: logger))
                }
            },
            onBound: self.onBound
        )
    }
}

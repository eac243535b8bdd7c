import APNsWire
import NIOCore
import NIOSSL

extension TLSListener {
    /// The device listener: emulated devices' long-lived TLS connections (docs/device-protocol.md).
    static func device(
        _ listener: Listener,
        sslContext: NIOSSLContext,
        relay: Relay,
        onBound: @escaping @Sendable (SocketAddress) -> Void
    ) -> TLSListener {
        let logger = listener.logger
        return TLSListener(listener: listener, sslContext: sslContext, onBound: onBound) { channel, _ in
            let pipeline = channel.pipeline.syncOperations
            try pipeline.addHandler(ByteToMessageHandler(DeviceFrameDecoder()))
            try pipeline.addHandler(MessageToByteHandler(DeviceFrameEncoder()))
            try pipeline.addHandler(DeviceSessionHandler(relay: relay, logger: logger))
        }
    }
}

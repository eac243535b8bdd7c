import APNsWire
import NIOCore
import NIOSSL

extension TLSListener {
    /// The device listener: emulated devices' long-lived TLS connections (docs/device-protocol.md).
    static func device(
        _ listener: Listener,
        sslContext: NIOSSLContext,
        relay: Relay,
        reader: StoreReader,
        phone: Phone,
        hub: DeliveryHub,
        power: DevicePowerBook,
        access: AdminAccess,
        refusal: ConnectionRefusal,
        doors: FrontDoors,
        onBound: @escaping @Sendable (SocketAddress) -> Void
    ) -> TLSListener {
        let logger = listener.logger
        return TLSListener(listener: listener, sslContext: sslContext, onBound: onBound) { channel, _ in
            let pipeline = channel.pipeline.syncOperations
            try pipeline.addHandler(ByteToMessageHandler(DeviceFrameDecoder()))
            try pipeline.addHandler(MessageToByteHandler(DeviceFrameEncoder()))
            let session = DeviceSessionHandler(
                relay: relay, reader: reader, phone: phone, hub: hub, power: power, access: access, logger: logger)
            // A provider at the device port is told where it belongs, in the log and the journal.
            session.onForeignProtocol = { channel, what in
                refusal.record(channel, source: .http2, detail: doors.notDeviceProtocol(what, port: channel.localAddress?.port))
            }
            try pipeline.addHandler(session)
        }
    }
}

import NIOCore

/// Writes frames; translation only.
public struct DeviceFrameEncoder: MessageToByteEncoder {
    public typealias OutboundIn = DeviceFrame

    public init() {}

    public func encode(data: DeviceFrame, out: inout ByteBuffer) throws {
        out.writeInteger(UInt32(1 + data.body.readableBytes))
        out.writeInteger(data.type)
        var body = data.body
        out.writeBuffer(&body)
    }
}

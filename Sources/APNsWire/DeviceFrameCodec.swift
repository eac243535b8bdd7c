import NIOCore

/// One device-protocol frame: a type byte and its body, not yet parsed.
public struct DeviceFrame: Hashable, Sendable {
    public var type: UInt8
    public var body: ByteBuffer

    public init(type: UInt8, body: ByteBuffer) {
        self.type = type
        self.body = body
    }
}

/// Splits a byte stream into frames (`length u32 · type u8 · body`); translation only.
///
/// It never reserves memory for a length the peer claims: it waits for the bytes to arrive, and a
/// length over ``DeviceProtocol/maximumFrameLength`` is refused at once.
public struct DeviceFrameDecoder: ByteToMessageDecoder {
    public typealias InboundOut = DeviceFrame

    public init() {}

    public mutating func decode(context: ChannelHandlerContext, buffer: inout ByteBuffer) throws -> DecodingState {
        guard let frame = try Self.next(from: &buffer) else { return .needMoreData }
        context.fireChannelRead(Self.wrapInboundOut(frame))
        return .continue
    }

    public mutating func decodeLast(context: ChannelHandlerContext, buffer: inout ByteBuffer, seenEOF: Bool) throws -> DecodingState {
        try self.decode(context: context, buffer: &buffer)
    }

    /// Takes one whole frame off the front of `buffer`, or nothing if it is not all there yet.
    public static func next(from buffer: inout ByteBuffer) throws -> DeviceFrame? {
        guard let length = buffer.getInteger(at: buffer.readerIndex, as: UInt32.self) else { return nil }
        guard length >= 1, length <= DeviceProtocol.maximumFrameLength else {
            throw DeviceProtocolError(.frameTooLarge, "frame length \(length) is outside 1...\(DeviceProtocol.maximumFrameLength)")
        }
        guard buffer.readableBytes >= 4 + Int(length) else { return nil }
        buffer.moveReaderIndex(forwardBy: 4)
        guard let type = buffer.readInteger(as: UInt8.self), let body = buffer.readSlice(length: Int(length) - 1) else {
            return nil
        }
        return DeviceFrame(type: type, body: body)
    }
}

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

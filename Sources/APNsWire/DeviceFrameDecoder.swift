import NIOCore

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

    public mutating func decodeLast(
        context: ChannelHandlerContext, buffer: inout ByteBuffer, seenEOF: Bool
    ) throws -> DecodingState {
        try self.decode(context: context, buffer: &buffer)
    }

    /// Takes one whole frame off the front of `buffer`, or nothing if it is not all there yet.
    public static func next(from buffer: inout ByteBuffer) throws -> DeviceFrame? {
        guard let length = buffer.getInteger(at: buffer.readerIndex, as: UInt32.self) else { return nil }
        if length > DeviceProtocol.maximumFrameLength, let other = ForeignProtocol.recognise(buffer) {
            throw DeviceProtocolError(.malformedFrame, "not the device protocol: \(other)", foreignProtocol: other)
        }
        guard length >= 1, length <= DeviceProtocol.maximumFrameLength else {
            throw DeviceProtocolError(
                .frameTooLarge, "frame length \(length) is outside 1...\(DeviceProtocol.maximumFrameLength)")
        }
        guard buffer.readableBytes >= 4 + Int(length) else { return nil }
        buffer.moveReaderIndex(forwardBy: 4)
        guard let type = buffer.readInteger(as: UInt8.self), let body = buffer.readSlice(length: Int(length) - 1) else {
            return nil
        }
        return DeviceFrame(type: type, body: body)
    }
}

import APNsCore
import NIOCore

/// Splits the legacy gateway's byte stream into commands 0, 1 and 2; translation only.
///
/// It waits for a command's bytes to arrive rather than reserving memory for the lengths the peer
/// claims, and refuses a frame length no valid frame can have at once. After a malformed frame
/// it consumes and drops everything: the connection is about to close, and what follows the bad
/// notification is discarded, as APNs does.
public struct BinaryGatewayDecoder: ByteToMessageDecoder {
    public typealias InboundOut = BinaryGatewayFrame

    /// The longest command-2 frame that can parse: five distinct items of at most 65,535 bytes each.
    public static let maximumFrameLength = 5 * (3 + Int(UInt16.max))

    private var failed = false

    public init() {}

    public mutating func decode(context: ChannelHandlerContext, buffer: inout ByteBuffer) throws -> DecodingState {
        if self.failed {
            buffer.moveReaderIndex(to: buffer.writerIndex)
            return .needMoreData
        }
        guard let frame = Self.next(from: &buffer) else { return .needMoreData }
        if frame.endsTheStream {
            self.failed = true
            buffer.moveReaderIndex(to: buffer.writerIndex)
        }
        context.fireChannelRead(Self.wrapInboundOut(frame))
        return .continue
    }

    public mutating func decodeLast(
        context: ChannelHandlerContext, buffer: inout ByteBuffer, seenEOF: Bool
    ) throws -> DecodingState {
        try self.decode(context: context, buffer: &buffer)
    }

    /// Takes one whole command off the front of `buffer`, or nothing if it is not all there yet.
    /// A `.malformed` result leaves the buffer where it was.
    public static func next(from buffer: inout ByteBuffer) -> BinaryGatewayFrame? {
        guard let command = buffer.getInteger(at: buffer.readerIndex, as: UInt8.self) else { return nil }
        switch command {
        case 0: return self.simple(from: &buffer)
        case 1: return self.enhanced(from: &buffer)
        case 2: return self.frame(from: &buffer)
        default:
            return ForeignProtocol.recognise(buffer).map { .foreign($0) }
                ?? .malformed(identifier: 0, detail: "unknown command \(command)")
        }
    }

    /// `0 · token length u16 · token · payload length u16 · payload`
    private static func simple(from buffer: inout ByteBuffer) -> BinaryGatewayFrame? {
        guard let (token, payload, length) = self.tokenAndPayload(in: buffer, at: buffer.readerIndex + 1) else { return nil }
        buffer.moveReaderIndex(forwardBy: 1 + length)
        return .push(BinaryPushRequest(command: 0, token: token, payload: payload))
    }

    /// `1 · identifier u32 · expiry u32 · token length u16 · token · payload length u16 · payload`
    private static func enhanced(from buffer: inout ByteBuffer) -> BinaryGatewayFrame? {
        let start = buffer.readerIndex
        guard let identifier = buffer.getInteger(at: start + 1, as: UInt32.self),
            let expiry = buffer.getInteger(at: start + 5, as: UInt32.self),
            let (token, payload, length) = self.tokenAndPayload(in: buffer, at: start + 9)
        else { return nil }
        buffer.moveReaderIndex(forwardBy: 9 + length)
        return .push(BinaryPushRequest(command: 1, identifier: identifier, expiry: expiry, token: token, payload: payload))
    }

    /// Reads `token length u16 · token · payload length u16 · payload` at `index` if all of it has arrived.
    private static func tokenAndPayload(in buffer: ByteBuffer, at index: Int) -> (token: [UInt8], payload: [UInt8], length: Int)?
    {
        guard let tokenLength = buffer.getInteger(at: index, as: UInt16.self),
            let payloadLength = buffer.getInteger(at: index + 2 + Int(tokenLength), as: UInt16.self),
            let token = buffer.getBytes(at: index + 2, length: Int(tokenLength)),
            let payload = buffer.getBytes(at: index + 4 + Int(tokenLength), length: Int(payloadLength))
        else { return nil }
        return (token, payload, 4 + token.count + payload.count)
    }

    /// `2 · frame length u32 · items`, each item `id u8 · length u16 · data`.
    private static func frame(from buffer: inout ByteBuffer) -> BinaryGatewayFrame? {
        guard let length = buffer.getInteger(at: buffer.readerIndex + 1, as: UInt32.self) else { return nil }
        guard length <= Self.maximumFrameLength else {
            return .malformed(identifier: 0, detail: "frame length \(length) is over \(Self.maximumFrameLength)")
        }
        guard var items = buffer.getSlice(at: buffer.readerIndex + 5, length: Int(length)) else { return nil }
        let parsed = self.items(from: &items)
        if case .push = parsed { buffer.moveReaderIndex(forwardBy: 5 + Int(length)) }
        return parsed
    }

    private static func items(from items: inout ByteBuffer) -> BinaryGatewayFrame {
        var request = BinaryPushRequest(command: 2, token: [], payload: [])
        // One bit per item id 1...5; this runs for every frame, so no collection is allocated.
        var seen: UInt8 = 0
        while items.readableBytes > 0 {
            guard let id = items.readInteger(as: UInt8.self), let length = items.readInteger(as: UInt16.self) else {
                return .malformed(identifier: request.identifier, detail: "an item header runs past the end of the frame")
            }
            guard var data = items.readSlice(length: Int(length)) else {
                return .malformed(
                    identifier: request.identifier, detail: "item \(id) of \(length) bytes runs past the end of the frame")
            }
            guard (1...5).contains(id) else {
                return .malformed(identifier: request.identifier, detail: "unknown item id \(id)")
            }
            guard seen & (1 << id) == 0 else {
                return .malformed(identifier: request.identifier, detail: "item \(id) appears twice")
            }
            seen |= 1 << id
            if let expectedSize = self.fixedSize(ofItem: id), expectedSize != Int(length) {
                return .malformed(identifier: request.identifier, detail: "item \(id) has \(length) bytes, not \(expectedSize)")
            }
            switch id {
            case 1: request.token = data.readBytes(length: data.readableBytes) ?? []
            case 2: request.payload = data.readBytes(length: data.readableBytes) ?? []
            case 3: request.identifier = data.readInteger(as: UInt32.self) ?? 0
            case 4: request.expiry = data.readInteger(as: UInt32.self)
            default: request.priority = data.readInteger(as: UInt8.self)
            }
        }
        return .push(request)
    }

    /// The size items 3 (identifier), 4 (expiry) and 5 (priority) must have; token and payload vary.
    private static func fixedSize(ofItem id: UInt8) -> Int? {
        switch id {
        case 3, 4: return 4
        case 5: return 1
        default: return nil
        }
    }
}

extension BinaryGatewayFrame {
    /// A frame after which nothing more is read: a malformed command or another protocol's bytes.
    var endsTheStream: Bool {
        switch self {
        case .push: false
        case .malformed, .foreign: true
        }
    }
}

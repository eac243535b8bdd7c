import APNsCore
import NIOCore

/// The gateway's only answer: `8 · status u8 · identifier u32`, written before it closes.
public struct BinaryErrorResponse: Hashable, Sendable {
    /// The command byte of an error response.
    public static let command: UInt8 = 8
    /// Its size on the wire.
    public static let size = 6

    public var status: BinaryStatus
    /// The identifier of the notification at fault; for status 10, of the last one processed.
    public var identifier: UInt32

    public init(status: BinaryStatus, identifier: UInt32) {
        self.status = status
        self.identifier = identifier
    }

    public func write(into out: inout ByteBuffer) {
        out.writeInteger(Self.command)
        out.writeInteger(self.status.code)
        out.writeInteger(self.identifier)
    }

    /// Reads one response off the front of `buffer`, as a provider does: `nil` until six bytes
    /// have arrived, or when they are not an error response (the command byte is not 8).
    public static func read(from buffer: inout ByteBuffer) -> BinaryErrorResponse? {
        guard buffer.readableBytes >= Self.size, buffer.getInteger(at: buffer.readerIndex, as: UInt8.self) == Self.command,
            let code = buffer.getInteger(at: buffer.readerIndex + 1, as: UInt8.self),
            let identifier = buffer.getInteger(at: buffer.readerIndex + 2, as: UInt32.self)
        else { return nil }
        buffer.moveReaderIndex(forwardBy: Self.size)
        return BinaryErrorResponse(
            status: BinaryStatus(code: code) ?? BinaryStatus(code: code, meaning: "undocumented"), identifier: identifier)
    }
}

import APNsCore
import NIOCore

/// Reads the fields of a device-protocol body; any shortfall is a `malformedFrame`.
struct DeviceBodyReader {
    var buffer: ByteBuffer

    mutating func u8() throws -> UInt8 { try self.integer() }
    mutating func u16() throws -> UInt16 { try self.integer() }
    mutating func u32() throws -> UInt32 { try self.integer() }
    mutating func u64() throws -> UInt64 { try self.integer() }
    mutating func i64() throws -> Int64 { try self.integer() }

    private mutating func integer<I: FixedWidthInteger>() throws -> I {
        guard let value = self.buffer.readInteger(as: I.self) else {
            throw DeviceProtocolError(.malformedFrame, "body ends inside a \(I.bitWidth)-bit field")
        }
        return value
    }

    mutating func bytes(_ count: Int) throws -> [UInt8] {
        guard let bytes = self.buffer.readBytes(length: count) else {
            throw DeviceProtocolError(.malformedFrame, "a field of \(count) bytes runs past the end of the body")
        }
        return bytes
    }

    mutating func string() throws -> String {
        let bytes = try self.bytes(Int(try self.u16()))
        guard let string = String(validating: bytes, as: UTF8.self) else {
            throw DeviceProtocolError(.malformedFrame, "a string is not UTF-8")
        }
        return string
    }

    /// Whether the body has bytes left (an optional trailing field).
    var hasMore: Bool { self.buffer.readableBytes > 0 }

    mutating func optionalString() throws -> String? {
        switch try self.u8() {
        case 0: return nil
        case 1: return try self.string()
        case let flag: throw DeviceProtocolError(.malformedFrame, "optional flag \(flag) is neither 0 nor 1")
        }
    }

    mutating func token() throws -> DeviceToken {
        let bytes = try self.bytes(Int(try self.u16()))
        guard let token = DeviceToken(bytes: bytes) else {
            throw DeviceProtocolError(.invalidArgument, "a token of \(bytes.count) bytes (32 to 100 expected)")
        }
        return token
    }

    mutating func payload() throws -> [UInt8] { try self.bytes(Int(try self.u32())) }

    mutating func flag() throws -> Bool {
        switch try self.u8() {
        case 0: return false
        case 1: return true
        case let flag: throw DeviceProtocolError(.malformedFrame, "flag \(flag) is neither 0 nor 1")
        }
    }

    /// Every body must be consumed exactly.
    func finish() throws {
        guard self.buffer.readableBytes == 0 else {
            throw DeviceProtocolError(.malformedFrame, "\(self.buffer.readableBytes) bytes left over after the body")
        }
    }
}

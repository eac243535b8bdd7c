import NIOCore

/// Adjusts values in the HTTP/2 frames a server writes, where swift-nio-http2 differs from APNs
/// and from RFC 9113; it never builds, splits or joins a frame, it only follows frame boundaries
/// across writes and reads or patches bytes inside the buffer at hand.
///
/// - GOAWAY for a connection error: swift-nio-http2 names stream 2^31-1 ("any stream may have
///   been processed"); RFC 9113 section 6.8 asks for the last stream processed, so the client
///   knows what to retry. `lastStreamID` gives it.
/// - RST_STREAM: `resetCode` may change the code (swift-nio-http2 answers a frame on a
///   half-closed (remote) stream with PROTOCOL_ERROR where RFC 9113 section 5.1 says STREAM_CLOSED).
/// - The first SETTINGS frame advertises `headerListSize` as SETTINGS_MAX_HEADER_LIST_SIZE:
///   swift-nio-http2 enforces the size it advertises as a connection error, where RFC 9113
///   section 10.5.1 makes it advisory, so it is configured with a larger hard limit.
///
/// `NIOHTTP2Handler` writes each frame's header and payload in one buffer (DATA's payload may
/// follow as its own write), so a frame to adjust is always whole in one buffer.
public struct HTTP2FrameAdjuster {
    public var headerListSize: UInt32
    public var lastStreamID: () -> Int32
    public var resetCode: (_ stream: Int32, _ code: UInt32) -> UInt32
    private var payloadLeft = 0
    private var settingsAdjusted = false

    public init(headerListSize: UInt32, lastStreamID: @escaping () -> Int32, resetCode: @escaping (Int32, UInt32) -> UInt32) {
        self.headerListSize = headerListSize
        self.lastStreamID = lastStreamID
        self.resetCode = resetCode
    }

    /// Adjusts the frames in `buffer`, the next bytes the server writes; true when it holds a
    /// GOAWAY with an error code (a connection error: the emulator's own GOAWAYs say NO_ERROR).
    public mutating func adjust(_ buffer: inout ByteBuffer) -> Bool {
        var offset = buffer.readerIndex
        let end = buffer.writerIndex
        var connectionError = false
        while offset < end {
            if self.payloadLeft > 0 {
                let skipped = min(self.payloadLeft, end - offset)
                self.payloadLeft -= skipped
                offset += skipped
                continue
            }
            guard end - offset >= 9, let word = buffer.getInteger(at: offset, as: UInt32.self),
                let flags = buffer.getInteger(at: offset + 4, as: UInt8.self), let stream = buffer.getInteger(at: offset + 5, as: Int32.self)
            else { break }
            let (length, payload) = (Int(word >> 8), offset + 9)
            if payload + length <= end {
                connectionError = self.adjust(type: UInt8(word & 0xFF), flags: flags, stream: stream & Int32.max, payload: payload, length: length, in: &buffer) || connectionError
            }
            self.payloadLeft = length
            offset = payload
        }
        return connectionError
    }

    /// Skips `count` bytes written other than as a buffer (a file region of DATA).
    public mutating func skip(_ count: Int) {
        self.payloadLeft = max(0, self.payloadLeft - count)
    }

    private mutating func adjust(type: UInt8, flags: UInt8, stream: Int32, payload: Int, length: Int, in buffer: inout ByteBuffer) -> Bool {
        switch type {
        case 0x3 where length == 4:
            if let code = buffer.getInteger(at: payload, as: UInt32.self) { buffer.setInteger(self.resetCode(stream, code), at: payload) }
        case 0x4 where flags & 0x1 == 0 && !self.settingsAdjusted:
            self.settingsAdjusted = true
            for entry in stride(from: payload, to: payload + length - 5, by: 6) where buffer.getInteger(at: entry, as: UInt16.self) == 0x6 {
                buffer.setInteger(self.headerListSize, at: entry + 2)
            }
        case 0x7 where length >= 8:
            guard buffer.getInteger(at: payload + 4, as: UInt32.self) != 0 else { return false }
            if buffer.getInteger(at: payload, as: UInt32.self) == UInt32(Int32.max) { buffer.setInteger(UInt32(self.lastStreamID()), at: payload) }
            return true
        default:
            break
        }
        return false
    }
}

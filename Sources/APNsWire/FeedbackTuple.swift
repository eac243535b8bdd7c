import NIOCore

/// One entry of the feedback service: `time u32 · token length u16 · token`.
public struct FeedbackTuple: Hashable, Sendable {
    /// UNIX seconds when the emulator learnt that the app was gone.
    public var time: UInt32
    public var token: [UInt8]

    public init(time: UInt32, token: [UInt8]) {
        self.time = time
        self.token = token
    }

    public func write(into out: inout ByteBuffer) {
        out.writeInteger(self.time)
        out.writeInteger(UInt16(truncatingIfNeeded: self.token.count))
        out.writeBytes(self.token)
    }

    /// Reads one tuple off the front of `buffer`, as a provider does; `nil` until it has all arrived.
    public static func read(from buffer: inout ByteBuffer) -> FeedbackTuple? {
        let start = buffer.readerIndex
        guard let time = buffer.getInteger(at: start, as: UInt32.self),
            let length = buffer.getInteger(at: start + 4, as: UInt16.self),
            let token = buffer.getBytes(at: start + 6, length: Int(length))
        else { return nil }
        buffer.moveReaderIndex(forwardBy: 6 + token.count)
        return FeedbackTuple(time: time, token: token)
    }
}

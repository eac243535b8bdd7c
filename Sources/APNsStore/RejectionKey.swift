/// Where a rejected request is kept: when it arrived (Unix milliseconds) and its journal id.
/// Keys are laid out time first, so the oldest are first and go first.
public struct RejectionKey: Sendable, Hashable {
    public var receivedAt: Int64
    public var id: String

    public init(receivedAt: Int64, id: String) {
        self.receivedAt = receivedAt
        self.id = id
    }

    var bytes: [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(8 + self.id.utf8.count)
        bytes.appendBigEndian(UInt64(bitPattern: self.receivedAt))
        bytes.append(contentsOf: self.id.utf8)
        return bytes
    }

    init(bytes: UnsafeRawBufferPointer) {
        self.receivedAt = bytes.count >= 8 ? Int64(bitPattern: bytes.readBigEndianUInt64(at: 0)) : 0
        self.id = String(decoding: bytes.dropFirst(8), as: UTF8.self)
    }
}

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

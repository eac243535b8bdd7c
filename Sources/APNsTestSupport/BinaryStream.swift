import APNsCore
import APNsWire
import NIOCore

/// A pipelined stream of legacy gateway commands, built the way a provider writes them.
public struct BinaryStream: Sendable {
    public private(set) var buffer = ByteBuffer()

    public init() {}

    /// A command-2 frame with every item: token, `{"n": n}` as payload, identifier, and optionally expiry and priority.
    public mutating func frame(token: DeviceToken, n: Int, identifier: UInt32, expiry: UInt32? = nil, priority: UInt8? = nil) {
        self.frame(
            BinaryPushRequest(
                command: 2, identifier: identifier, expiry: expiry, token: token.bytes, payload: Self.payload(n),
                priority: priority))
    }

    public mutating func frame(_ request: BinaryPushRequest) {
        BinaryPushEncoder.writeFrame(request, into: &self.buffer)
    }

    public mutating func raw(_ bytes: [UInt8]) {
        self.buffer.writeBytes(bytes)
    }

    public mutating func write(_ body: (inout ByteBuffer) -> Void) {
        body(&self.buffer)
    }

    public var bytes: [UInt8] { Array(self.buffer.readableBytesView) }

    public static func payload(_ n: Int) -> [UInt8] { Array(#"{"aps":{"alert":"binary"},"n":\#(n)}"#.utf8) }
}

import APNsCore
import NIOCore

#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

/// Reads a provider's HTTP/2 request headers and body into a ``PushRequest``; translation only.
public enum HTTP2PushRequestDecoder {
    /// The request fields found in one HEADERS block. Pseudo-headers and headers APNs ignores are skipped.
    public static func request(from headers: some Sequence<(String, String)>) -> PushRequest {
        var reader = HTTP2PushRequestReader()
        for (name, value) in headers {
            var name = name
            var value = value
            name.withUTF8 { name in
                value.withUTF8 { reader.add(name: UnsafeRawBufferPointer(name), value: UnsafeRawBufferPointer($0)) }
            }
        }
        return reader.request
    }
}

extension PushRequest {
    /// Adds a DATA frame's bytes; keeps at most ``PushValidator/maximumBufferedBody`` of them but
    /// counts all, so an oversized payload is measured without being held in memory.
    public mutating func appendBody(_ buffer: ByteBuffer) {
        buffer.withUnsafeReadableBytes { self.appendBody($0) }
    }

    /// Adds bytes of the body, read in place; as ``appendBody(_:)-(ByteBuffer)``.
    public mutating func appendBody(_ bytes: UnsafeRawBufferPointer) {
        self.bodyLength += bytes.count
        let room = PushValidator.maximumBufferedBody - self.body.count
        guard room > 0 else { return }
        self.body.append(contentsOf: bytes.prefix(room))
    }
}

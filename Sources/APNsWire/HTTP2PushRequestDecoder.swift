import APNsCore
import NIOCore
import NIOHPACK

/// Reads a provider's HTTP/2 request headers and body into a ``PushRequest``; translation only.
public enum HTTP2PushRequestDecoder {
    /// The request fields found in one HEADERS block. Pseudo-headers and headers APNs ignores are skipped.
    public static func request(from headers: HPACKHeaders) -> PushRequest {
        var request = PushRequest(method: nil)
        var seen: UInt16 = 0
        func note(_ bit: UInt16) {
            if seen & bit != 0 { request.hasDuplicateHeaders = true }
            seen |= bit
        }
        for (name, value, _) in headers {
            switch name {
            case ":method":
                request.method = value
            case ":path":
                request.path = value
            case "content-length":
                request.contentLength = Int(value)
            case "authorization":
                note(1 << 0)
                request.authorization = value
            case "apns-push-type":
                note(1 << 1)
                request.pushType = value
            case "apns-id":
                note(1 << 2)
                request.apnsID = value
            case "apns-expiration":
                note(1 << 3)
                request.expiration = value
            case "apns-priority":
                note(1 << 4)
                request.priority = value
            case "apns-topic":
                note(1 << 5)
                request.topic = value
            case "apns-collapse-id":
                note(1 << 6)
                request.collapseID = value
            default:
                break
            }
        }
        return request
    }
}

extension PushRequest {
    /// Adds a DATA frame's bytes; keeps at most ``PushValidator/maximumBufferedBody`` of them but
    /// counts all, so an oversized payload is measured without being held in memory.
    public mutating func appendBody(_ buffer: ByteBuffer) {
        self.bodyLength += buffer.readableBytes
        let room = PushValidator.maximumBufferedBody - self.body.count
        guard room > 0 else { return }
        buffer.withUnsafeReadableBytes { bytes in
            self.body.append(contentsOf: bytes.prefix(room))
        }
    }
}

import APNsCore
import APNsWire
import NIOCore

/// What a provider stream hands its connection to send, in the stream's own terms: the
/// connection turns it into libnghttp2 submissions (no HTTP/2 frame types on the way).
enum StreamAnswer {
    /// 200 for a stored notification: `apns-id`, `apns-unique-id` (development), the lint's warnings.
    case accepted(apnsID: String, uniqueID: String?, warnings: [PushWarning])
    /// Any other answer: its header fields (`:status` first) and, if it has one, its body.
    case response(ResponseFields, body: ByteBuffer?)
    /// RST_STREAM with this HTTP/2 error code (after an early answer, so nothing more is read).
    case reset(code: UInt32)
}

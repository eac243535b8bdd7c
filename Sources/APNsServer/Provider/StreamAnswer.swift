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

/// Where a provider connection's streams send their answers and their fault rules' GOAWAY: the
/// connection's HTTP/2 session (``ProviderConnectionHandler``), called directly.
protocol StreamAnswerSink: AnyObject {
    /// Sends `answer` on stream `id`; `written` completes once its last frame is written (or
    /// fails when the stream is gone).
    func send(_ answer: StreamAnswer, on id: Int32, written: EventLoopPromise<Void>?)
    /// GOAWAY from stream `id` on, with debug data `{"reason": reason}`.
    func goAway(from id: Int32, reason: String)
    /// The TCP connection ends at once (a fault rule's reset).
    func resetConnection()
}

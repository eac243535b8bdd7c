import APNsCore
import APNsWire
import CNGHTTP2
import NIOCore

/// What a server session reports while it reads and writes; called from inside
/// ``NGHTTP2Session/receive(_:)`` and ``NGHTTP2Session/send(into:)``.
protocol NGHTTP2SessionDelegate: AnyObject {
    /// A client opened stream `id` (its first HEADERS began).
    func streamOpened(_ id: Int32)
    /// A request's complete header block, or the end of its body.
    func received(_ part: ProviderRequestPart)
    /// A chunk of a request's body, valid only during the call.
    func receivedBody(_ bytes: UnsafeRawBufferPointer, on id: Int32)
    /// The stream closed, for whatever reason (answered, reset by either side, refused by GOAWAY).
    func streamClosed(_ id: Int32)
    /// The last frame of the answer on stream `id` (END_STREAM) was serialized for sending.
    func answerSent(_ id: Int32)
}

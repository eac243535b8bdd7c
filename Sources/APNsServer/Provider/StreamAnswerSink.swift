import APNsCore
import APNsWire
import NIOCore

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

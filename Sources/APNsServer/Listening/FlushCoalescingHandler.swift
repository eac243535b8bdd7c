import NIOCore

/// Turns the many flushes of one event-loop tick into one.
///
/// When a group commit completes, every stream of a connection answers in the same tick and each
/// flushes; unmerged, that is one TLS record write and one system call per response. Sitting
/// between TLS and HTTP/2, this handler passes writes through at once and defers the flush to
/// the end of the tick, so TLS encrypts and the socket sends everything together.
/// On the connection's event loop.
final class FlushCoalescingHandler: ChannelOutboundHandler {
    typealias OutboundIn = NIOAny
    typealias OutboundOut = NIOAny

    private var flushScheduled = false

    func flush(context: ChannelHandlerContext) {
        guard !self.flushScheduled else { return }
        self.flushScheduled = true
        context.eventLoop.assumeIsolated().execute {
            guard self.flushScheduled else { return }
            self.flushScheduled = false
            context.flush()
        }
    }

    /// Sends what is pending before closing: the last responses and a GOAWAY must not be lost.
    func close(context: ChannelHandlerContext, mode: CloseMode, promise: EventLoopPromise<Void>?) {
        if self.flushScheduled {
            self.flushScheduled = false
            context.flush()
        }
        context.close(mode: mode, promise: promise)
    }
}

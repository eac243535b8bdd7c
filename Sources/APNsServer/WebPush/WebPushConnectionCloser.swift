import NIOCore
import NIOHTTP2

/// Ends a Web Push HTTP/2 connection as the provider API ends its own: at shutdown, or when the
/// connection received nothing for the idle timeout, a GOAWAY naming the highest stream seen
/// (every stream already open is answered), then the connection is closed at once when no stream
/// is open, else when the last one closes or after `grace`. Without it a sender that kept an idle
/// connection open (Java's HttpClient does; a client that does not read never answers a PING)
/// held the emulator's exit until the sender closed it. Sits after the NIOHTTP2Handler, which
/// tells it of streams through ``delegate(on:)``.
final class WebPushConnectionCloser: ChannelInboundHandler {
    typealias InboundIn = HTTP2Frame
    typealias InboundOut = HTTP2Frame
    typealias OutboundOut = HTTP2Frame

    private let grace: TimeAmount
    private var context: ChannelHandlerContext?
    private var open: Set<HTTP2StreamID> = []
    private var highest = HTTP2StreamID(0)
    private var closing = false

    init(grace: TimeAmount) { self.grace = grace }

    /// The NIOHTTP2Handler's stream delegate for this connection (called on its event loop).
    func delegate(on eventLoop: any EventLoop) -> some NIOHTTP2StreamDelegate {
        Streams(closer: NIOLoopBound(self, eventLoop: eventLoop))
    }

    private struct Streams: NIOHTTP2StreamDelegate {
        let closer: NIOLoopBound<WebPushConnectionCloser>
        func streamCreated(_ id: HTTP2StreamID, channel: any Channel) { self.closer.value.opened(id) }
        func streamClosed(_ id: HTTP2StreamID, channel: any Channel) { self.closer.value.ended(id) }
    }

    func handlerAdded(context: ChannelHandlerContext) { self.context = context }
    func handlerRemoved(context: ChannelHandlerContext) { self.context = nil }

    private func opened(_ id: HTTP2StreamID) {
        self.open.insert(id)
        self.highest = max(self.highest, id)
    }

    private func ended(_ id: HTTP2StreamID) {
        self.open.remove(id)
        if self.closing && self.open.isEmpty { self.context?.close(promise: nil) }
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        switch event {
        case is ChannelShouldQuiesceEvent:
            self.goAway(context: context)
        case let idle as IdleStateHandler.IdleStateEvent where idle == .read:
            self.goAway(context: context)
        default:
            break
        }
        context.fireUserInboundEventTriggered(event)
    }

    private func goAway(context: ChannelHandlerContext) {
        guard !self.closing else { return }
        self.closing = true
        let frame = HTTP2Frame(
            streamID: .rootStream, payload: .goAway(lastStreamID: self.highest, errorCode: .noError, opaqueData: nil))
        if self.open.isEmpty {
            context.writeAndFlush(self.wrapOutboundOut(frame)).assumeIsolated().whenComplete { _ in context.close(promise: nil) }
        } else {
            context.writeAndFlush(self.wrapOutboundOut(frame), promise: nil)
            context.eventLoop.assumeIsolated().scheduleTask(in: self.grace) { context.close(promise: nil) }
        }
    }
}

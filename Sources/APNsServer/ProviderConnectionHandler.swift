import APNsCore
import APNsWire
import NIOCore
import NIOHTTP2

/// Connection-level behaviour of the provider API that NIOHTTP2 leaves to the server:
/// opening the connection window wide at once, and graceful shutdown the way APNs does it
/// (GOAWAY with `{"reason":"Shutdown"}`, finish the streams already accepted, then close).
/// Sits after `NIOHTTP2Handler` in the connection pipeline; runs on the connection's event loop.
final class ProviderConnectionHandler: ChannelDuplexHandler {
    typealias InboundIn = HTTP2Frame
    typealias InboundOut = HTTP2Frame
    typealias OutboundIn = HTTP2Frame
    typealias OutboundOut = HTTP2Frame

    /// The connection window the server grants at once, beyond HTTP/2's initial 65,535 bytes.
    let connectionWindow: Int
    private var openStreams = 0
    private var highestStreamID = HTTP2StreamID(0)
    private var quiescing = false

    init(connectionWindow: Int) {
        self.connectionWindow = connectionWindow
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { self.widenConnectionWindow(context: context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        self.widenConnectionWindow(context: context)
        context.fireChannelActive()
    }

    private func widenConnectionWindow(context: ChannelHandlerContext) {
        let increment = self.connectionWindow - 65_535
        guard increment > 0 else { return }
        let frame = HTTP2Frame(streamID: .rootStream, payload: .windowUpdate(windowSizeIncrement: increment))
        context.writeAndFlush(self.wrapOutboundOut(frame), promise: nil)
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        switch event {
        case let created as NIOHTTP2StreamCreatedEvent:
            self.openStreams += 1
            if created.streamID > self.highestStreamID { self.highestStreamID = created.streamID }
        case is StreamClosedEvent:
            self.openStreams -= 1
            if self.quiescing && self.openStreams <= 0 { context.close(promise: nil) }
        case is ChannelShouldQuiesceEvent:
            self.quiesce(context: context)
            return
        default:
            break
        }
        context.fireUserInboundEventTriggered(event)
    }

    private func quiesce(context: ChannelHandlerContext) {
        guard !self.quiescing else { return }
        self.quiescing = true
        let debugData = HTTP2PushResponseEncoder.body(reason: .shutdown, allocator: context.channel.allocator)
        let goAway = HTTP2Frame(
            streamID: .rootStream,
            payload: .goAway(lastStreamID: self.highestStreamID, errorCode: .noError, opaqueData: debugData)
        )
        context.writeAndFlush(self.wrapOutboundOut(goAway), promise: nil)
        if self.openStreams <= 0 { context.close(promise: nil) }
    }
}

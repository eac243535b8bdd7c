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
    /// How long a shutting-down connection waits for its open streams before it is closed anyway,
    /// so that a client that never finishes a request cannot hold the emulator open.
    let shutdownGrace: TimeAmount
    private var machine = ProviderConnectionStateMachine()
    private var context: ChannelHandlerContext?

    init(connectionWindow: Int, shutdownGrace: TimeAmount) {
        self.connectionWindow = connectionWindow
        self.shutdownGrace = shutdownGrace
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        if context.channel.isActive { self.widenConnectionWindow(context: context) }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        self.context = nil
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

    /// Sends new SETTINGS (raising the stream limit once a token-based connection has authenticated).
    func announce(_ settings: HTTP2Settings) {
        guard let context = self.context else { return }
        context.writeAndFlush(self.wrapOutboundOut(HTTP2Frame(streamID: .rootStream, payload: .settings(.settings(settings)))), promise: nil)
    }

    /// NIOHTTP2 (with no stream multiplexer) reports streams and the connection window here.
    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if let created = event as? NIOHTTP2StreamCreatedEvent {
            self.machine.streamCreated(created.streamID)
        } else if let closed = event as? StreamClosedEvent {
            self.perform(self.machine.streamClosed(closed.streamID))
        } else if let window = event as? NIOHTTP2WindowUpdatedEvent, window.streamID == .rootStream, let inbound = window.inboundWindowSize,
            inbound <= self.connectionWindow / 2
        {
            // What the multiplexer would do: top the connection window up once half is used.
            let update = HTTP2Frame(streamID: .rootStream, payload: .windowUpdate(windowSizeIncrement: self.connectionWindow - inbound))
            context.writeAndFlush(self.wrapOutboundOut(update), promise: nil)
        }
        if event is ChannelShouldQuiesceEvent {
            return self.perform(self.machine.shutdown())
        } else if let idle = event as? IdleStateHandler.IdleStateEvent, idle == .read {
            return self.perform(self.machine.idle())
        }
        context.fireUserInboundEventTriggered(event)
    }

    /// NIOHTTP2 sent GOAWAY for a connection error (told by ``HTTP2WireAdjuster``; stream errors,
    /// answered with RST_STREAM, leave the connection be): nothing more is read, and the
    /// connection closes once the GOAWAY is written and the open streams are answered.
    func connectionErrorSent(written: EventLoopFuture<Void>) {
        guard let context, case .stopReadingThenClose(let closeNow) = self.machine.connectionError() else { return }
        do {
            try context.channel.syncOptions?.setOption(.autoRead, value: false)
        } catch {
            return context.close(promise: nil)
        }
        if closeNow { written.assumeIsolated().whenComplete { _ in context.close(promise: nil) } }
        self.close(now: false, context: context)
    }

    /// The highest stream the connection opened.
    var lastStreamID: Int32 { Int32(self.machine.highestStreamID) }

    func requestEnded(_ id: HTTP2StreamID) { self.machine.requestEnded(id) }

    func resetCode(stream id: Int32, _ code: UInt32) -> UInt32 {
        UInt32(self.machine.resetCode(stream: HTTP2StreamID(id), HTTP2ErrorCode(networkCode: Int(code))).networkCode)
    }

    /// Sends GOAWAY saying streams from `streamID` on were not processed (a fault rule's), with
    /// debug data `{"reason": reason}`; NIOHTTP2 closes those streams, and the connection closes
    /// once the earlier ones are answered.
    func goAway(from streamID: HTTP2StreamID, reason: String) {
        self.perform(self.machine.goAway(from: streamID, reason: reason))
    }

    private func perform(_ action: ProviderConnectionStateMachine.Action) {
        guard let context = self.context else { return }
        switch action {
        case .none:
            break
        case .closeAfterFlush:
            // NIOHTTP2 reports the closure while it is still handling the frame that ended the
            // stream, before that frame's bytes are written: close on the next tick, once they are.
            context.eventLoop.assumeIsolated().execute {
                context.close(promise: nil)
            }
        case .goAway(let lastStreamID, let reason, let closeNow):
            let reason = Reason(wire: reason) ?? Reason(wire: reason, status: 503)
            let debugData = HTTP2PushResponseEncoder.body(reason: reason, allocator: context.channel.allocator)
            let goAway = HTTP2Frame(streamID: .rootStream, payload: .goAway(lastStreamID: lastStreamID, errorCode: .noError, opaqueData: debugData))
            context.writeAndFlush(self.wrapOutboundOut(goAway), promise: nil)
            self.close(now: closeNow, context: context)
        case .stopReadingThenClose:
            break  // only ever the answer to connectionError(), performed by connectionErrorSent
        }
    }

    private func close(now: Bool, context: ChannelHandlerContext) {
        guard !now else { return context.close(promise: nil) }
        context.eventLoop.assumeIsolated().scheduleTask(in: self.shutdownGrace) { context.close(promise: nil) }
    }
}

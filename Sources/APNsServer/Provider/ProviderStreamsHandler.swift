import NIOCore
import NIOHTTP2

/// Runs a provider connection's streams without a channel per stream: the connection hands every
/// part of every request here (by a direct call, ``receive(_:)``, not through the pipeline, which
/// would box each part), each stream's go to its ``ProviderStream``, and the answers go back as
/// frames on the connection. Last in the connection's pipeline, after
/// ``ProviderConnectionHandler``; on the connection's event loop.
final class ProviderStreamsHandler: ChannelInboundHandler {
    typealias InboundIn = ProviderRequestPart
    typealias OutboundOut = HTTP2Frame

    private let shared: ProviderContext
    private let connection: ProviderConnectionState
    private weak var connectionHandler: ProviderConnectionHandler?
    private var streams: [HTTP2StreamID: ProviderStream] = [:]
    private var context: ChannelHandlerContext?
    /// The connection's event loop, which every stream runs on.
    let eventLoop: any EventLoop

    init(context: ProviderContext, connection: ProviderConnectionState, connectionHandler: ProviderConnectionHandler, eventLoop: any EventLoop) {
        self.eventLoop = eventLoop
        self.shared = context
        self.connection = connection
        self.connectionHandler = connectionHandler
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        self.context = nil
        self.streams = [:]
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        self.receive(self.unwrapInboundIn(data))
    }

    /// One part of a request on one of the connection's streams.
    func receive(_ part: ProviderRequestPart) {
        if let stream = self.streams[part.stream] {
            stream.receive(part.payload)
        } else if case .headers = part.payload {
            let stream = ProviderStream(id: part.stream, context: self.shared, connection: self.connection, output: self)
            self.streams[part.stream] = stream
            stream.receive(part.payload)
        }
    }

    /// A chunk of the body of stream `id`'s request, read in place.
    func receiveBody(_ bytes: UnsafeRawBufferPointer, on id: HTTP2StreamID) {
        self.streams[id]?.receiveBody(bytes)
    }

    /// Stream `id` closed: its answer, if it still has one to give, has nowhere to go.
    func streamClosed(_ id: HTTP2StreamID) {
        self.streams[id] = nil
    }

    var allocator: ByteBufferAllocator { self.context?.channel.allocator ?? ByteBufferAllocator() }

    /// Writes one frame of stream `id` (the connection drops frames for a stream that has closed).
    func write(_ payload: HTTP2Frame.FramePayload, on id: HTTP2StreamID, flush: Bool, promise: EventLoopPromise<Void>? = nil) {
        guard let context = self.context else {
            promise?.fail(ChannelError.ioOnClosedChannel)
            return
        }
        context.write(self.wrapOutboundOut(HTTP2Frame(streamID: id, payload: payload)), promise: promise)
        if flush { context.flush() }
    }

    /// A fault rule's reset: the TCP connection ends at once.
    func resetConnection() {
        if let channel = self.context?.channel { ConnectionReset.reset(channel) }
    }

    /// A fault rule's GOAWAY from stream `id` on.
    func goAway(from id: HTTP2StreamID, reason: String) {
        self.connectionHandler?.goAway(from: id, reason: reason)
    }
}

import NIOCore

/// Runs a provider connection's streams without a channel per stream: the connection hands every
/// part of every request here (by a direct call, ``receive(_:)``, not through the pipeline, which
/// would box each part), each stream's go to its ``ProviderStream``, and the answers go back to
/// the connection's session by a direct call too (``StreamAnswerSink``). Last in the connection's
/// pipeline, after ``ProviderConnectionHandler``; on the connection's event loop.
final class ProviderStreamsHandler: ChannelInboundHandler {
    typealias InboundIn = ProviderRequestPart

    private let shared: ProviderContext
    private let connection: ProviderConnectionState
    private weak var sink: (any StreamAnswerSink)?
    private var streams: [Int32: ProviderStream] = [:]
    private var context: ChannelHandlerContext?
    /// The connection's event loop, which every stream runs on.
    let eventLoop: any EventLoop

    init(context: ProviderContext, connection: ProviderConnectionState, sink: any StreamAnswerSink, eventLoop: any EventLoop) {
        self.eventLoop = eventLoop
        self.shared = context
        self.connection = connection
        self.sink = sink
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
    func receiveBody(_ bytes: UnsafeRawBufferPointer, on id: Int32) {
        self.streams[id]?.receiveBody(bytes)
    }

    /// Stream `id` closed: its answer, if it still has one to give, has nowhere to go.
    func streamClosed(_ id: Int32) {
        self.streams[id] = nil
    }

    var allocator: ByteBufferAllocator { self.context?.channel.allocator ?? ByteBufferAllocator() }

    /// Sends stream `id`'s answer (the session drops answers for a stream that has closed).
    func send(_ answer: StreamAnswer, on id: Int32, written: EventLoopPromise<Void>? = nil) {
        guard self.context != nil, let sink = self.sink else {
            written?.fail(ChannelError.ioOnClosedChannel)
            return
        }
        sink.send(answer, on: id, written: written)
    }

    /// A fault rule's reset: the TCP connection ends at once.
    func resetConnection() {
        self.sink?.resetConnection()
    }

    /// A fault rule's GOAWAY from stream `id` on.
    func goAway(from id: Int32, reason: String) {
        self.sink?.goAway(from: id, reason: reason)
    }
}

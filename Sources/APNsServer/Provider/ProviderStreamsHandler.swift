import NIOCore

/// Runs a provider connection's streams without a channel per stream: the connection hands every
/// part of every request here (by a direct call, ``receive(_:)``, not through the pipeline, which
/// would box each part), each stream's go to its ``ProviderStream``, and the answers go back to
/// the connection's session by a direct call too (``StreamAnswerSink``). Last in the connection's
/// pipeline, after ``ProviderConnectionHandler``; on the connection's event loop.
final class ProviderStreamsHandler: ChannelInboundHandler {
    typealias InboundIn = ProviderRequestPart

    /// What every request shares; each stream reads it here (a copy per stream would retain its
    /// every part, for every request).
    let shared: ProviderContext
    private let connection: ProviderConnectionState
    private weak var sink: (any StreamAnswerSink)?
    private var streams: [Int32: ProviderStream] = [:]
    private var context: ChannelHandlerContext?
    /// The two highest streams handed to the intake (or answered early): a fault's GOAWAY must
    /// name at least every stream processed besides the faulted one.
    private var highestStarted: (first: Int32, second: Int32) = (0, 0)
    /// The last-stream-id of the GOAWAY sent, once one is: a stream above it is never processed
    /// (RFC 9113, section 6.8: the client may send it again on another connection).
    private(set) var goAwayLastStream: Int32?
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
        } else if case .headers(let request, _, _) = part.payload {
            if let last = self.goAwayLastStream, part.stream > last {
                // Read after the GOAWAY was decided, in the same bytes: not processed, not answered.
                self.connection.observer?.unprocessed(request, stream: part.stream)
                return self.shared.intake.notProcessed(request, ids: self.connection, stream: part.stream, lastStream: last)
            }
            let stream = ProviderStream(id: part.stream, connection: self.connection, output: self)
            self.streams[part.stream] = stream
            stream.receive(part.payload)
        }
    }

    /// A chunk of the body of stream `id`'s request, read in place.
    func receiveBody(_ bytes: UnsafeRawBufferPointer, on id: Int32) {
        self.streams[id]?.receiveBody(bytes)
    }

    /// The open streams at or below `last` whose requests were complete: their answers are still
    /// to be written. (A request the client has not finished is not waited for.)
    func openStreams(through last: Int32) -> Set<Int32> {
        Set(self.streams.lazy.filter { $0.key <= last && $0.value.isDecided }.map(\.key))
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

    /// Stream `id`'s request goes to the intake (or is answered before it is complete).
    func started(_ id: Int32) {
        if id > self.highestStarted.first {
            self.highestStarted = (id, self.highestStarted.first)
        } else if id > self.highestStarted.second {
            self.highestStarted.second = id
        }
    }

    /// Whether stream `id` is above the last-stream-id of a GOAWAY already decided.
    func isAfterGoAway(_ id: Int32) -> Bool { self.goAwayLastStream.map { id > $0 } ?? false }

    /// A fault rule's GOAWAY for stream `id`: it and the streams after it were not processed.
    /// When a later stream already was (its request complete before this one's), the GOAWAY
    /// names that one, and this stream is refused with REFUSED_STREAM (RFC 9113, section 8.7:
    /// not processed, safe to send again).
    func goAway(from id: Int32, reason: String) {
        let other = id == self.highestStarted.first ? self.highestStarted.second : self.highestStarted.first
        if other > id { self.send(.reset(code: 7), on: id) }
        self.sink?.goAway(from: max(id, other + 2), reason: reason)
    }

    /// The connection sent GOAWAY naming `lastStream` (a fault's, shutdown's or idleness's).
    func wentAway(lastStream: Int32) {
        if self.goAwayLastStream == nil {
            self.goAwayLastStream = lastStream
            self.connection.observer?.wentAway(lastStream: lastStream)
        }
    }

    /// The report card hears what this tick answered (the connection calls it as it writes).
    func flushObserver() {
        self.connection.observer?.flush()
    }

    func channelInactive(context: ChannelHandlerContext) {
        self.connection.observer?.closed()
        context.fireChannelInactive()
    }
}

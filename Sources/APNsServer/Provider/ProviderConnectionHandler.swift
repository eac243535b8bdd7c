import APNsCore
import APNsWire
import NIOCore

/// A provider connection's HTTP/2, on libnghttp2 (``NGHTTP2Session``): decrypted bytes in,
/// ``ProviderRequestPart``s on to ``ProviderStreamsHandler`` (called directly), its answers
/// (``StreamAnswer``, by a direct call too) back into the session, and what the session has to send out once per event-loop tick, so that
/// every answer of a group commit leaves in one TLS write. Beyond the protocol it does what APNs
/// does with a connection: the connection window opened wide at once, and GOAWAY with a JSON
/// reason for graceful shutdown (`Shutdown`, finishing the streams already accepted), an idle
/// connection (`IdleTimeout`) and a fault rule's. Sits after TLS; on the connection's event loop.
final class ProviderConnectionHandler: ChannelInboundHandler, NGHTTP2SessionDelegate, StreamAnswerSink {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    /// The SETTINGS the connection starts with.
    let settings: [(id: Int32, value: UInt32)]
    /// The connection window the server grants at once, beyond HTTP/2's initial 65,535 bytes.
    let connectionWindow: Int
    /// How long a shutting-down connection waits for its open streams before it is closed anyway,
    /// so that a client that never finishes a request cannot hold the emulator open.
    let shutdownGrace: TimeAmount
    private var machine = ProviderConnectionStateMachine()
    private var session: NGHTTP2Session?
    private var context: ChannelHandlerContext?
    /// Where the requests go: the next handler, called directly (it holds this one weakly).
    var streams: ProviderStreamsHandler?
    /// Told the first bytes of a client that did not open with HTTP/2's preface.
    var onBadPreface: ((any Channel, ByteBuffer) -> Void)?
    /// Between a read and its read-complete, when what is submitted goes out at the read-complete.
    private var reading = false
    private var sendScheduled = false
    private var closeAfterSend = false
    /// Promises of answers' last frames, by stream; those sent complete after their bytes are written.
    private var answerPromises: [Int32: EventLoopPromise<Void>] = [:]
    private var answered: [EventLoopPromise<Void>] = []
    /// A GOAWAY decided while streams it names as processed still wait for their answers: sent
    /// once the last of them has closed, its answer written. A client may stop reading at a
    /// GOAWAY (Pushy's ApnsClient closes its channel there), and would lose the answers after it.
    private var heldGoAway: (lastStream: Int32, debugData: ByteBuffer, waiting: Set<Int32>)?

    init(settings: [(id: Int32, value: UInt32)] = [], connectionWindow: Int, shutdownGrace: TimeAmount) {
        self.settings = settings
        self.connectionWindow = connectionWindow
        self.shutdownGrace = shutdownGrace
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        let session = NGHTTP2Session(allocator: context.channel.allocator)
        session.delegate = self
        session.submitSettings(self.settings)
        session.openConnectionWindow(to: Int32(clamping: self.connectionWindow))
        self.session = session
        if context.channel.isActive { self.send() }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        self.context = nil
        self.session = nil
        for promise in self.answerPromises.values { promise.fail(ChannelError.ioOnClosedChannel) }
        self.answerPromises = [:]
    }

    func channelActive(context: ChannelHandlerContext) {
        self.send()
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard let session = self.session, !self.closeAfterSend else { return }
        self.reading = true
        let bytes = self.unwrapInboundIn(data)
        switch session.receive(bytes) {
        case .read:
            break
        case .badPreface:
            // Another protocol's client at this door: nothing more is read.
            self.closeAfterSend = true
            self.onBadPreface?(context.channel, bytes)
        case .failed:
            self.closeAfterSend = true
        }
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        self.reading = false
        self.send()
        context.fireChannelReadComplete()
    }

    // MARK: Answers from the streams

    func send(_ answer: StreamAnswer, on id: Int32, written promise: EventLoopPromise<Void>?) {
        guard let session = self.session else {
            promise?.fail(ChannelError.ioOnClosedChannel)
            return
        }
        let submitted: Bool
        switch answer {
        case .accepted(let apnsID, let uniqueID, let warnings):
            submitted = session.submitAccepted(stream: id, apnsID: apnsID, uniqueID: uniqueID, warnings: warnings)
        case .response(let fields, let body):
            submitted = session.submitResponse(stream: id, fields: fields, body: body)
        case .reset(let code):
            session.submitReset(stream: id, code: code)
            promise?.succeed()
            return self.scheduleSend()
        }
        guard submitted else {
            // The stream closed first (reset by the client, or refused by a GOAWAY): nothing to answer.
            promise?.fail(ChannelError.ioOnClosedChannel)
            return
        }
        if let promise { self.answerPromises[id] = promise }
        self.scheduleSend()
    }

    func resetConnection() {
        if let channel = self.context?.channel { ConnectionReset.reset(channel) }
    }

    /// Sends what the session has at the end of this tick (or at the read-complete, when reading).
    private func scheduleSend() {
        guard !self.reading, !self.sendScheduled, let context = self.context else { return }
        self.sendScheduled = true
        context.eventLoop.assumeIsolated().execute {
            self.sendScheduled = false
            self.send()
        }
    }

    /// Writes everything the session has to send in one buffer, then closes the connection when
    /// it is done: after a connection error's GOAWAY, or a GOAWAY once no stream is left.
    private func send() {
        guard let context = self.context, let session = self.session, context.channel.isActive else { return }
        self.streams?.flushObserver()
        var buffer: ByteBuffer?
        if !session.send(into: &buffer) { self.closeAfterSend = true }
        if let buffer { context.writeAndFlush(self.wrapOutboundOut(buffer), promise: nil) }
        let answered = self.answered
        self.answered = []
        for promise in answered { promise.succeed() }
        if self.closeAfterSend || (!session.wantsRead && !session.wantsWrite) {
            self.closeAfterSend = true
            // Nothing more is read, not even while TLS waits for the client's close_notify: a
            // client that goes on sending fills its socket, not the emulator's time.
            try? context.channel.syncOptions?.setOption(.autoRead, value: false)
            context.close(promise: nil)
        } else if !session.wantsRead {
            // A connection error's GOAWAY is on its way: whatever the client sends now is not read.
            try? context.channel.syncOptions?.setOption(.autoRead, value: false)
        }
    }

    // MARK: The session's reports

    func streamOpened(_ id: Int32) {
        self.machine.streamCreated(id)
    }

    func received(_ part: ProviderRequestPart) {
        self.streams?.receive(part)
    }

    func receivedBody(_ bytes: UnsafeRawBufferPointer, on id: Int32) {
        self.streams?.receiveBody(bytes, on: id)
    }

    func streamClosed(_ id: Int32) {
        self.answerPromises.removeValue(forKey: id)?.fail(ChannelError.ioOnClosedChannel)
        self.streams?.streamClosed(id)
        // The last answer a held GOAWAY waited for is written: the GOAWAY follows it. (The set
        // changes in place: no copy of it per closing stream.)
        if self.heldGoAway?.waiting.remove(id) != nil, self.heldGoAway?.waiting.isEmpty == true { self.sendHeldGoAway() }
        self.perform(self.machine.streamClosed(id))
    }

    private func sendHeldGoAway() {
        guard let held = self.heldGoAway else { return }
        self.heldGoAway = nil
        self.session?.submitGoAway(lastStream: held.lastStream, code: 0, debugData: held.debugData)
        self.scheduleSend()
    }

    func answerSent(_ id: Int32) {
        if let promise = self.answerPromises.removeValue(forKey: id) { self.answered.append(promise) }
    }

    // MARK: Connection policy

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if event is ChannelShouldQuiesceEvent {
            return self.perform(self.machine.shutdown())
        } else if let idle = event as? IdleStateHandler.IdleStateEvent, idle == .read {
            return self.perform(self.machine.idle())
        }
        context.fireUserInboundEventTriggered(event)
    }

    /// Sends new SETTINGS (raising the stream limit once a token-based connection has authenticated).
    func announce(_ settings: [(id: Int32, value: UInt32)]) {
        self.session?.submitSettings(settings)
        self.scheduleSend()
    }

    /// Sends GOAWAY saying streams from `streamID` on were not processed (a fault rule's), with
    /// debug data `{"reason": reason}`; those streams close once it is sent, and the connection
    /// once the earlier ones are answered.
    func goAway(from streamID: Int32, reason: String) {
        self.perform(self.machine.goAway(from: streamID, reason: reason))
    }

    private func perform(_ action: ProviderConnectionStateMachine.Action) {
        guard let context = self.context else { return }
        switch action {
        case .none:
            break
        case .closeAfterFlush:
            self.closeAfterSend = true
            self.scheduleSend()
        case .goAway(let lastStreamID, let reason, let closeNow):
            let reason = Reason(wire: reason) ?? Reason(wire: reason, status: 503)
            let debugData = HTTP2PushResponseEncoder.body(reason: reason, allocator: context.channel.allocator)
            // Streams above the last-stream-id are not processed from now on; those at or below it
            // are answered first, then the GOAWAY goes (RFC 9113, section 6.8 allows either order;
            // a client that closes at the GOAWAY needs this one).
            self.streams?.wentAway(lastStream: lastStreamID)
            let waiting = self.streams?.openStreams(through: lastStreamID) ?? []
            self.heldGoAway = (lastStreamID, debugData, waiting)
            if waiting.isEmpty { self.sendHeldGoAway() }
            if closeNow {
                self.closeAfterSend = true
            } else {
                context.eventLoop.assumeIsolated().scheduleTask(in: self.shutdownGrace) { context.close(promise: nil) }
            }
            self.scheduleSend()
        }
    }
}

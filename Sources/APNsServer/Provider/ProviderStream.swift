import APNsCore
import APNsInspection
import APNsWire
import NIOCore

/// One HTTP/2 stream of the provider API: gathers the request, hands it to the intake once it is
/// complete (or refuses it early when it cannot be), and turns the intake's outcome into the
/// stream's answer. A plain object, not a channel: ``ProviderStreamsHandler`` feeds it the
/// stream's parts and sends its answers. On the connection's event loop.
final class ProviderStream {
    let id: Int32
    let connection: ProviderConnectionState
    /// Strong: an answer may come after the connection closed (the store or a fault's delay
    /// outlives it); the handler then drops it. The handler lets go of its streams when removed.
    let output: ProviderStreamsHandler
    /// The request while it comes in; once complete (or refused early), it moves to the intake's
    /// call (``arrival``).
    private(set) var request: PushRequest?
    /// The complete request as the intake took it, shared with its call: the report card reads
    /// it for the answer without a copy of its fields.
    private var arrival: PushIntake.Call.Arrival?
    private var answered = false
    /// Whether the request was complete (or refused before it was): its answer is coming or came.
    var isDecided: Bool { self.answered }

    init(id: Int32, connection: ProviderConnectionState, output: ProviderStreamsHandler) {
        self.id = id
        self.connection = connection
        self.output = output
    }

    /// One part of the stream's request.
    func receive(_ payload: ProviderRequestPart.Payload) {
        switch payload {
        case .headers(let request, let listSize, let endStream):
            if self.request == nil {
                self.request = request
            }
            if listSize > HTTP2ProviderListener.headerListSize {
                let detail =
                    "the header list is \(listSize) bytes; SETTINGS_MAX_HEADER_LIST_SIZE is \(HTTP2ProviderListener.headerListSize)"
                self.refuse(Reason(wire: "RequestHeaderFieldsTooLarge", status: 431), detail: detail, endStream: endStream)
            } else if let declared = self.request?.contentLength, declared > PushValidator.largestPayload {
                self.refuseOversized(declared)
            } else if endStream {
                // A second HEADERS block is a trailer; APNs ignores it.
                self.finish()
            }
        case .body(let buffer, let endStream):
            guard !self.answered else { return }
            buffer.withUnsafeReadableBytes { self.receiveBody($0) }
            if endStream, !self.answered { self.finish() }
        }
    }

    /// A chunk of the request's body; the client has not ended the stream yet.
    func receiveBody(_ bytes: UnsafeRawBufferPointer) {
        guard !self.answered else { return }
        self.request?.appendBody(bytes)
        if let length = self.request?.bodyLength, length > PushValidator.largestPayload {
            self.refuseOversized(length)
        }
    }

    /// The request is complete: the connection decides who sent it, the intake the rest.
    private func finish() {
        guard !self.answered, let request = self.request.take() else { return }
        self.answered = true
        if let last = self.output.goAwayLastStream, self.id > last {
            // Complete only after the GOAWAY was decided: not processed, the client may resend it.
            self.connection.observer?.unprocessed(request, stream: self.id)
            return self.output.shared.intake.notProcessed(request, ids: self.connection, stream: self.id, lastStream: last)
        }
        self.output.started(self.id)
        let call = self.output.shared.intake.call(request, ids: self.connection)
        self.arrival = call.arrival
        let decision = self.connection.authenticate(
            request.authorization, nowMillis: self.output.shared.realClock(), environment: call.environment,
            verifier: self.output.shared.verifier)
        let exam = self.examEvent(call)
        self.output.shared.intake.take(
            call, authentication: decision, on: self.output.eventLoop, exam: exam.map(ProviderExam.rule)
        ) { outcome in
            self.answer(outcome, exam: exam)
        }
    }

    /// The exam's event this request meets, when the exam is on (``ProviderExam``).
    private func examEvent(_ call: PushIntake.Call) -> ProviderExam.Event? {
        guard let observer = self.connection.observer, self.output.shared.inspection.providers.exam, !call.isChannelRequest
        else { return nil }
        return self.output.shared.inspection.providers.examEvent(for: observer.identify(call.request.authorization))
    }

    /// Answers 413 PayloadTooLarge as soon as the body is (or says it will be) longer than any
    /// push type allows, then resets the stream with NO_ERROR so the provider stops sending
    /// (RFC 9113, section 8.1): nothing more of it is read or held.
    private func refuseOversized(_ length: Int) {
        let detail = "payload is at least \(length) bytes; no push type allows more than \(PushValidator.largestPayload)"
        self.refuse(.payloadTooLarge, detail: detail, endStream: false)
    }

    /// Answers before the request is complete; unless the client has ended the stream, resets it
    /// after the answer, so nothing more of it is read.
    private func refuse(_ reason: Reason, detail: String, endStream: Bool) {
        guard !self.answered, let request = self.request.take() else { return }
        self.answered = true
        self.output.started(self.id)
        let intake = self.output.shared.intake
        let call = intake.call(request, ids: self.connection)
        self.arrival = call.arrival
        let outcome = intake.refuseEarly(call, reason, detail: detail)
        // The reset waits for the answer's DATA: nghttp2 sends a RST_STREAM ahead of DATA still queued.
        let written = self.output.eventLoop.makePromise(of: Void.self)
        written.futureResult.assumeIsolated().whenComplete { _ in
            if !endStream { self.output.send(.reset(code: 0), on: self.id) }
        }
        self.answer(outcome, written: written)
    }

    /// Sends the intake's outcome as this stream's answer; `written`, when given, completes once
    /// the answer's last frame is written.
    func answer(_ outcome: ProviderOutcome, written: EventLoopPromise<Void>? = nil, exam: ProviderExam.Event? = nil) {
        if let arrival = self.arrival {
            self.connection.observer?.answered(arrival.request, stream: self.id, outcome: outcome, exam: exam)
        }
        let allocator = self.output.allocator
        switch outcome {
        case .accepted(.push(let accepted)):
            self.output.send(
                .accepted(apnsID: accepted.apnsID, uniqueID: accepted.uniqueID, warnings: accepted.warnings), on: self.id,
                written: written)
        case .refused(.push(let refusal)):
            let failure = HTTP2PushResponseEncoder.failure(refusal.rejection, timestamp: refusal.timestamp, allocator: allocator)
            self.output.send(.response(failure.headers, body: failure.body), on: self.id, written: written)
        case .accepted(.channel(let channel)), .refused(.channel(let channel)):
            var written = written
            if let after = channel.afterAnswer {
                let promise = written ?? self.output.eventLoop.makePromise(of: Void.self)
                promise.futureResult.whenComplete { _ in after() }
                written = promise
            }
            self.output.send(Self.answer(channel, allocator: allocator), on: self.id, written: written)
        case .reset:
            written?.fail(ChannelError.ioOnClosedChannel)
            self.output.resetConnection()
        case .goAway(let reason):
            written?.fail(ChannelError.ioOnClosedChannel)
            self.output.goAway(from: self.id, reason: reason)
        }
    }

    /// A channel management or broadcast answer: its fields, and its body if it has one.
    static func answer(_ answer: ChannelAnswer, allocator: ByteBufferAllocator) -> StreamAnswer {
        if let reason = answer.reason {
            let failure = HTTP2PushResponseEncoder.channelFailure(
                Rejection(reason: reason, apnsID: answer.requestID, detail: answer.detail), allocator: allocator)
            return .response(failure.headers, body: failure.body)
        }
        let fields = HTTP2PushResponseEncoder.channelSuccess(
            status: answer.status, requestID: answer.requestID, channelID: answer.channelID, uniqueID: answer.uniqueID,
            hasBody: answer.body != nil, warnings: answer.warnings)
        return .response(fields, body: answer.body.map { allocator.buffer(bytes: $0) })
    }
}

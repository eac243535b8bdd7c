import APNsAuth
import APNsCore
import APNsInspection
import APNsWire
import NIOCore
import NIOHPACK
import NIOHTTP2

/// One HTTP/2 stream of the provider API: gathers the request, validates it, hands it to the
/// relay and answers once it is durable. A plain object, not a channel: ``ProviderStreamsHandler``
/// feeds it the stream's frames and writes its answers. On the connection's event loop.
final class ProviderStream {
    let id: HTTP2StreamID
    let context: ProviderContext
    let connection: ProviderConnectionState
    /// Strong: an answer may come after the connection closed (the store or a fault's delay
    /// outlives it); the handler then drops it. The handler lets go of its streams when removed.
    let output: ProviderStreamsHandler
    private(set) var request: PushRequest?
    private var answered = false
    /// When the request was complete: wall clock for the journal, monotonic for the latency metric.
    private var receivedAt: Int64 = 0
    private var started = NIODeadline.uptimeNanoseconds(0)
    /// The fault rule that shaped this request's answer, if any.
    private var fault: FaultMark?
    var faultMark: FaultMark? { self.fault }

    init(id: HTTP2StreamID, context: ProviderContext, connection: ProviderConnectionState, output: ProviderStreamsHandler) {
        self.id = id
        self.context = context
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
                let detail = "the header list is \(listSize) bytes; SETTINGS_MAX_HEADER_LIST_SIZE is \(HTTP2ProviderListener.headerListSize)"
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

    private func finish() {
        guard !self.answered, let request = self.request else { return }
        self.answered = true
        let shared = self.context
        let connection = self.connection
        self.started = .now()
        self.receivedAt = shared.clock()
        var credential: ProviderCredential?
        if let decision = connection.authenticate(request.authorization, nowMillis: shared.realClock(), verifier: shared.verifier) {
            switch decision {
            case .refuse(let reason):
                shared.logger.info("refused a provider: \(reason.wire): \(reason.explanation)", metadata: ["apns.topic": "\(request.topic ?? "-")"])
                self.respond(Rejection(reason: reason, apnsID: self.apnsID(for: request)))
                return
            case .allow(let allowed, _):
                credential = allowed
            }
        }
        let rule = shared.inspection.fault(for: Self.faultRequest(request, credential: credential))
        guard let rule else {
            self.process(request, credential: credential)
            return
        }
        self.fault = FaultMark(ruleID: rule.id, action: rule.action.name)
        switch rule.action {
        case .respond(let wire, let status, _):
            let reason = Reason.injected(wire: wire ?? "", status: status)
            self.respond(Rejection(reason: reason, apnsID: self.apnsID(for: request), detail: "injected by fault rule \(rule.id)"))
        case .delay(let delay):
            self.output.eventLoop.assumeIsolated().scheduleTask(in: TimeAmount(delay)) {
                self.process(request, credential: credential)
            }
        case .reset:
            self.record(reason: nil)
            self.output.resetConnection()
        case .goAway(let reason):
            self.record(reason: reason)
            self.output.goAway(from: self.id, reason: reason)
        }
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
        guard !self.answered, let request = self.request else { return }
        self.answered = true
        self.receivedAt = self.context.clock()
        // The reset waits for the answer's DATA: nghttp2 sends a RST_STREAM ahead of DATA still queued.
        let written = self.output.eventLoop.makePromise(of: Void.self)
        written.futureResult.assumeIsolated().whenComplete { _ in
            if !endStream { self.output.write(.rstStream(.noError), on: self.id, flush: true) }
        }
        self.respond(Rejection(reason: reason, apnsID: self.apnsID(for: request), detail: detail), written: written)
    }

    /// Validates and stores the request (after a delay, when a fault rule asked for one).
    private func process(_ request: PushRequest, credential: ProviderCredential?) {
        let shared = self.context
        let connection = self.connection
        if BroadcastRoute.claims(request.path) { return self.manageChannels(request, credential: credential) }
        if shared.channelsOnly {
            return self.respond(Rejection(reason: Reason.badPath.explained("the channels port serves /1/apps/<bundle id>/channels and /all-channels only"), apnsID: self.apnsID(for: request)))
        }
        let now = self.receivedAt
        switch PushValidator().validate(request, nowMillis: now, source: .http2, generateID: { connection.makeID(nowMillis: now) }) {
        case .failure(let rejection):
            shared.logger.debug(
                "rejected push",
                metadata: ["apns.reason": "\(rejection.reason.wire)", "apns.detail": "\(rejection.detail ?? "")"]
            )
            self.respond(rejection)
        case .success(var notification):
            if let credential {
                if let reason = ProviderAuthStateMachine.refusal(of: notification.pushType, credential: credential) {
                    self.respond(Rejection(reason: reason, apnsID: notification.apnsID))
                    return
                }
                switch ProviderAuthStateMachine.topic(for: notification.topic, credential: credential) {
                case .success(let topic): notification.topic = topic
                case .failure(let reason):
                    self.respond(Rejection(reason: reason, apnsID: notification.apnsID))
                    return
                }
            }
            self.accept(notification)
        }
    }

    private func accept(_ notification: Notification) {
        let shared = self.context
        shared.relay.accept(notification, on: self.output.eventLoop).assumeIsolated().whenComplete { result in
            switch result {
            case .success(let outcome):
                if let refusal = Relay.refusal(for: outcome) {
                    let rejection = Rejection(reason: refusal.reason, apnsID: notification.apnsID)
                    self.respond(rejection, timestamp: refusal.timestamp)
                    return
                }
                shared.inspection.metrics.accepted(.http2, after: .nanoseconds(Int64(NIODeadline.now().uptimeNanoseconds - self.started.uptimeNanoseconds)))
                if let fault = self.fault { shared.inspection.delayed(uniqueID: notification.uniqueID, by: fault) }
                let uniqueID = shared.environment == .development ? notification.uniqueID : nil
                let warnings = PushLint.warnings(for: notification)
                shared.inspection.metrics.warned(warnings)
                let headers = HTTP2PushResponseEncoder.success(apnsID: notification.apnsID, uniqueID: uniqueID, warnings: warnings)
                self.output.write(.headers(.init(headers: headers, endStream: true)), on: self.id, flush: true)
            case .failure(let error):
                shared.logger.info("could not store a push", metadata: ["store.error": "\(error)"])
                let rejection = Rejection(reason: Relay.reason(for: error), apnsID: notification.apnsID)
                self.respond(rejection)
            }
        }
    }

    /// Answers with an error, and records it in the journal.
    /// `written`, when given, completes once the answer's last frame is written.
    func respond(_ rejection: Rejection, timestamp: Int64? = nil, written: EventLoopPromise<Void>? = nil) {
        if let request = self.request, BroadcastRoute.claims(request.path) {
            // The channel APIs name a request by apns-request-id and journal it as theirs.
            return self.respondChannel(rejection, request: request, written: written)
        }
        self.record(reason: rejection.reason.wire, status: rejection.reason.status, apnsID: rejection.apnsID, detail: rejection.detail ?? rejection.reason.explanation)
        // Every 410 (Unregistered, ExpiredToken) says since when the token is no longer valid;
        // client libraries read the field unconditionally.
        let timestamp = timestamp ?? (rejection.reason.status == 410 ? self.receivedAt : nil)
        let response = HTTP2PushResponseEncoder.failure(rejection, timestamp: timestamp, allocator: self.output.allocator)
        self.output.write(.headers(.init(headers: response.headers)), on: self.id, flush: false)
        self.output.write(.data(.init(data: .byteBuffer(response.body), endStream: true)), on: self.id, flush: true, promise: written)
    }

    /// Journals the request as rejected: with the reason and status the provider got, or none
    /// (the connection was reset or sent away).
    private func record(reason: String?, status: Int? = nil, apnsID: String? = nil, detail: String? = nil) {
        guard let request = self.request else { return }
        if BroadcastRoute.claims(request.path) {
            var record = BroadcastRecord(id: self.connection.makeID(), request: request, operation: nil, bundleID: nil, receivedAt: self.receivedAt, httpStatus: status ?? 0)
            (record.reason, record.detail) = (reason, detail)
            return self.context.inspection.journal.broadcast(record, fault: self.fault)
        }
        let connection = self.connection
        var rejected = RejectedPush(
            request, id: connection.makeID(), apnsID: apnsID ?? request.apnsID, reason: reason, httpStatus: status, receivedAt: self.receivedAt
        )
        rejected.detail = detail.flatMap { $0.isEmpty ? nil : $0 }
        self.context.inspection.rejected(rejected, fault: self.fault)
    }

    /// The `apns-id` an error answer carries: the provider's when it is canonical, else a new one.
    private func apnsID(for request: PushRequest) -> String {
        request.apnsID.flatMap { APNsID.isCanonical($0) ? $0 : nil } ?? self.connection.makeID()
    }
}

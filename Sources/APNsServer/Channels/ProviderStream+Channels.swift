import APNsAuth
import APNsCore
import APNsInspection
import APNsWire
import NIOCore

/// The channel management and broadcast routes on a provider stream: ``ChannelRequests``
/// decides, the stream writes the answer.
extension ProviderStream {
    func manageChannels(_ request: PushRequest, credential: ProviderCredential?) {
        let shared = self.context
        let requests = ChannelRequests(relay: shared.relay, inspection: shared.inspection, environment: shared.environment)
        let connection = self.connection
        requests.answer(request, credential: credential, receivedAt: shared.clock(), makeID: { connection.makeID() }, on: self.output.eventLoop)
            .assumeIsolated().whenComplete { result in
                switch result {
                case .success(let answer): self.write(answer)
                case .failure(let error):
                    self.respond(Rejection(reason: Relay.reason(for: error), apnsID: request.requestID ?? connection.makeID()))
                }
            }
    }

    /// Writes a channel answer: its headers, then its body if it has one.
    func write(_ answer: ChannelAnswer) {
        if let reason = answer.reason {
            let failure = HTTP2PushResponseEncoder.channelFailure(Rejection(reason: reason, apnsID: answer.requestID, detail: answer.detail), allocator: self.output.allocator)
            self.output.write(.headers(.init(headers: failure.headers)), on: self.id, flush: false)
            self.output.write(.data(.init(data: .byteBuffer(failure.body), endStream: true)), on: self.id, flush: true)
            return
        }
        let headers = HTTP2PushResponseEncoder.channelSuccess(
            status: answer.status, requestID: answer.requestID, channelID: answer.channelID, uniqueID: answer.uniqueID, hasBody: answer.body != nil, warnings: answer.warnings)
        guard let body = answer.body else {
            return self.output.write(.headers(.init(headers: headers, endStream: true)), on: self.id, flush: true)
        }
        var buffer = self.output.allocator.buffer(capacity: body.count)
        buffer.writeBytes(body)
        self.output.write(.headers(.init(headers: headers)), on: self.id, flush: false)
        self.output.write(.data(.init(data: .byteBuffer(buffer), endStream: true)), on: self.id, flush: true)
    }

    /// A refusal before the channel APIs saw the request (authentication, a fault rule, the
    /// size limit), answered and journaled as theirs.
    func respondChannel(_ rejection: Rejection, request: PushRequest, written: EventLoopPromise<Void>?) {
        var record = BroadcastRecord(id: self.connection.makeID(), request: request, operation: nil, bundleID: nil, receivedAt: self.context.clock(), httpStatus: rejection.reason.status)
        if let path = request.path, case .success(let route) = BroadcastRoute.parse(path) {
            record.bundleID = route.bundleID
            record.operation = ChannelRequests.operation(route.kind, method: request.method ?? "")
        }
        record.reason = rejection.reason.wire
        record.detail = rejection.detail ?? rejection.reason.explanation
        let requestID = request.requestID.flatMap { APNsID.isCanonical($0) ? $0 : nil } ?? self.connection.makeID()
        record.requestID = requestID
        self.context.inspection.journal.broadcast(record, fault: self.faultMark)
        let failure = HTTP2PushResponseEncoder.channelFailure(Rejection(reason: rejection.reason, apnsID: requestID, detail: rejection.detail), allocator: self.output.allocator)
        self.output.write(.headers(.init(headers: failure.headers)), on: self.id, flush: false)
        self.output.write(.data(.init(data: .byteBuffer(failure.body), endStream: true)), on: self.id, flush: true, promise: written)
    }

    /// The fields fault rules look at: a channel request's interface is `broadcast`, its topic
    /// the bundle id of its path.
    static func faultRequest(_ request: PushRequest, credential: ProviderCredential?) -> FaultRequest {
        guard BroadcastRoute.claims(request.path) else {
            return FaultRequest(
                interface: .http2, token: { RejectedPush.token(fromPath: request.path) }, topic: request.topic ?? credential?.defaultTopic, pushType: request.pushType)
        }
        let bundle = (try? BroadcastRoute.parse(request.path ?? "").get())?.bundleID
        var fault = FaultRequest(interface: .broadcast, token: { "" }, topic: bundle, pushType: request.pushType)
        fault.channelID = request.channelID
        return fault
    }
}

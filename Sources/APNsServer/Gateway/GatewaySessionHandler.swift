import APNsCore
import APNsInspection
import APNsWire
import NIOCore

/// Performs one legacy gateway connection: validates each notification, hands the good ones to
/// the relay, and lets ``GatewaySessionStateMachine`` decide when the error response goes out.
/// Runs on the connection's event loop.
final class GatewaySessionHandler: ChannelDuplexHandler {
    typealias InboundIn = BinaryGatewayFrame
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private let shared: GatewayContext
    private var machine = GatewaySessionStateMachine()
    private var ids: APNsIDGenerator

    /// The topic every notification on this connection goes to: the bundle id of the provider's
    /// certificate in strict mode (the binary interface has no topic field), `nil` otherwise.
    private let topic: String?

    init(context: GatewayContext, topic: String?) {
        self.shared = context
        self.topic = topic
        self.ids = APNsIDGenerator(shard: context.relay.shard)
    }

    /// How long a lingering connection must be quiet before it closes.
    static let lingerQuiet = TimeAmount.milliseconds(100)

    func channelReadComplete(context: ChannelHandlerContext) {
        // Counted here, not per frame: after a malformed frame the decoder drops bytes silently.
        self.machine.readCompleted()
        context.fireChannelReadComplete()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard self.machine.isAccepting else { return }
        switch self.unwrapInboundIn(data) {
        case .malformed(let identifier, let detail):
            self.shared.logger.debug("malformed binary frame", metadata: ["apns.detail": "\(detail)"])
            self.perform(self.machine.refused(.protocolError, identifier: identifier), context: context)
        case .push(let request):
            self.push(request, context: context)
        }
    }

    private func push(_ request: BinaryPushRequest, context: ChannelHandlerContext) {
        let shared = self.shared
        let receivedAt = shared.clock()
        let started = NIODeadline.now()
        if self.injectFault(into: request, receivedAt: receivedAt, context: context) { return }
        let validated = BinaryPushValidator().validate(request, topic: self.topic, nowMillis: receivedAt) {
            self.ids.timeOrderedUUID(nowMillis: receivedAt)
        }
        let notification: Notification
        switch validated {
        case .failure(let rejection):
            shared.logger.debug(
                "rejected binary push",
                metadata: ["apns.status": "\(rejection.status)", "apns.detail": "\(rejection.detail)"]
            )
            self.refuse(request, rejection.status, receivedAt: receivedAt, context: context)
            return
        case .success(let valid):
            notification = valid
        }
        if let status = self.earlyRefusal(of: notification) {
            self.refuse(request, status, receivedAt: receivedAt, context: context)
            return
        }

        self.machine.submitted()
        let identifier = request.identifier
        shared.relay.accept(notification, on: context.eventLoop).assumeIsolated().whenComplete { result in
            let refusal: BinaryStatus?
            switch result {
            case .success(let outcome):
                refusal = Relay.binaryRefusal(for: outcome)
            case .failure(let error):
                shared.logger.info("could not store a binary push", metadata: ["store.error": "\(error)"])
                refusal = .processingError
            }
            if let refusal {
                self.record(request, status: refusal, receivedAt: receivedAt)
            } else {
                let elapsed = NIODeadline.now().uptimeNanoseconds - started.uptimeNanoseconds
                shared.inspection.metrics.accepted(.binary, after: .nanoseconds(Int64(elapsed)))
                shared.inspection.metrics.warned(PushLint.warnings(for: notification))
            }
            self.perform(self.machine.committed(identifier: identifier, refusal: refusal), context: context)
            if self.machine.resumeReading() { context.read() }
        }
    }

    /// Applies a fault rule to the notification, if one matches: an error response with the
    /// rule's status byte, or a reset connection. Returns whether it did.
    private func injectFault(into request: BinaryPushRequest, receivedAt: Int64, context: ChannelHandlerContext) -> Bool {
        let rule = self.shared.inspection.fault(
            for: FaultRequest(interface: .binary, token: { Hex.encode(request.token) }, topic: self.topic, pushType: nil)
        )
        guard let rule else { return false }
        let mark = FaultMark(ruleID: rule.id, action: rule.action.name)
        switch rule.action {
        case .respond(_, _, let byte?):
            let status = BinaryStatus(code: byte) ?? BinaryStatus(code: byte, meaning: "Injected")
            self.refuse(request, status, receivedAt: receivedAt, fault: mark, context: context)
        case .reset:
            let rejected = RejectedPush(request, id: self.ids.uuid(), topic: self.topic, statusByte: nil, receivedAt: receivedAt)
            self.shared.inspection.rejected(rejected, fault: mark)
            self.machine.closed()
            ConnectionReset.reset(context.channel)
        case .respond, .delay, .goAway:
            // Rules only match the interfaces their action applies to.
            return false
        }
        return true
    }

    /// Refuses a notification on arrival: noted for the journal, and the machine decides when the
    /// error response goes out.
    private func refuse(_ request: BinaryPushRequest, _ status: BinaryStatus, receivedAt: Int64, fault: FaultMark? = nil, context: ChannelHandlerContext) {
        self.record(request, status: status, receivedAt: receivedAt, fault: fault)
        self.perform(self.machine.refused(status, identifier: request.identifier), context: context)
    }

    /// Notes a refused notification; it is journaled when (and if) the error response names it,
    /// after the notifications before it have been committed, as the provider learns of it.
    private func record(_ request: BinaryPushRequest, status: BinaryStatus, receivedAt: Int64, fault: FaultMark? = nil) {
        var rejected = RejectedPush(request, id: self.ids.uuid(), topic: self.topic, statusByte: status.code, receivedAt: receivedAt)
        rejected.detail = fault.map { "injected by fault rule \($0.ruleID)" } ?? status.meaning
        self.machine.refusals.note(rejected, identifier: request.identifier, fault: fault)
    }

    /// Refuses a token before submitting when the store would (see ``Relay/binaryTokenRefusal(for:)``).
    private func earlyRefusal(of notification: Notification) -> BinaryStatus? {
        do {
            return try self.shared.relay.binaryTokenRefusal(for: notification)
        } catch {
            self.shared.logger.info("could not look a token up", metadata: ["store.error": "\(error)"])
            return .processingError
        }
    }

    func read(context: ChannelHandlerContext) {
        if self.machine.read() == .read { context.read() }
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if event is ChannelShouldQuiesceEvent {
            self.perform(self.machine.shutdown(), context: context)
        } else if let idle = event as? IdleStateHandler.IdleStateEvent, idle == .read {
            self.perform(self.machine.idle(), context: context)
        } else {
            context.fireUserInboundEventTriggered(event)
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        self.machine.closed()
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        self.shared.logger.debug("gateway connection error", metadata: ["connection.error": "\(error)"])
        self.machine.closed()
        context.close(promise: nil)
    }

    private func perform(_ action: GatewaySessionStateMachine.Action, context: ChannelHandlerContext) {
        switch action {
        case .none:
            break
        case .close:
            context.close(promise: nil)
        case .writeErrorAndClose(let response):
            if let refused = self.machine.refusals.take(identifier: response.identifier, statusByte: response.status.code) {
                self.shared.inspection.rejected(refused.push, fault: refused.fault)
            }
            var buffer = context.channel.allocator.buffer(capacity: BinaryErrorResponse.size)
            response.write(into: &buffer)
            context.writeAndFlush(self.wrapOutboundOut(buffer)).assumeIsolated().whenComplete { result in
                guard case .success = result else {
                    context.close(promise: nil)
                    return
                }
                self.machine.errorResponseWritten()
                context.read()
                self.closeWhenQuiet(context: context)
            }
        }
    }

    private func closeWhenQuiet(context: ChannelHandlerContext) {
        context.eventLoop.assumeIsolated().scheduleTask(in: Self.lingerQuiet) {
            if self.machine.lingerCheck() {
                context.close(promise: nil)
            } else {
                self.closeWhenQuiet(context: context)
            }
        }
    }
}

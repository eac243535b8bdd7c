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
    private let ids: ConnectionIDs

    /// The topic every notification on this connection goes to: the bundle id of the provider's
    /// certificate in strict mode (the binary interface has no topic field), `nil` otherwise.
    private let topic: String?

    init(context: GatewayContext, topic: String?) {
        self.shared = context
        self.topic = topic
        self.ids = ConnectionIDs(shard: context.intake.ids.shard)
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
            self.refuse(identifier: identifier, context: context) { self.shared.doors.malformedBinary(detail, port: $0) }
        case .foreign(let other):
            self.refuse(identifier: 0, context: context) { self.shared.doors.foreignAtGateway(other, port: $0) }
        case .push(let request):
            self.push(request, context: context)
        }
    }

    /// Status 128, logged and journaled with what was wrong (`explain` is told the port) and, for
    /// another protocol's bytes, where they belong.
    private func refuse(identifier: UInt32, context: ChannelHandlerContext, explain: (Int?) -> String) {
        let port = context.channel.localAddress?.port
        let explained = explain(port)
        self.shared.logger.info(
            "refused a binary gateway connection: \(explained)",
            metadata: [
                "connection.peer": "\(context.channel.remoteAddress.map { "\($0)" } ?? "?")", "connection.port": "\(port ?? 0)",
            ])
        let refused = RejectedPush(
            connectionOn: .binary, port: port, id: self.ids.timeOrderedUUID(nowMillis: self.shared.clock()),
            statusByte: BinaryStatus.protocolError.code, sent: [], detail: explained, receivedAt: self.shared.clock())
        self.machine.refusals.note(refused, identifier: identifier)
        self.perform(self.machine.refused(.protocolError, identifier: identifier), context: context)
    }

    /// Hands the notification to the intake and lets the machine decide when its refusal (if
    /// any) goes out; it is journaled when the error response names it, after the notifications
    /// before it have been committed, as the provider learns of it. A refusal before the store
    /// stops the connection reading; one after the commit comes in submission order.
    private func push(_ request: BinaryPushRequest, context: ChannelHandlerContext) {
        let shared = self.shared
        var door = BinaryPushDoor(
            request, topic: self.topic, ids: self.ids, receivedAt: shared.clock(), shard: shared.intake.ids.shard,
            environment: shared.environment)
        let identifier = request.identifier
        var submitted = false
        shared.intake.take(
            &door, on: context.eventLoop,
            submitted: {
                submitted = true
                self.machine.submitted()
            }
        ) { result in
            switch result {
            case .refused(let refusal) where submitted:
                self.machine.refusals.note(refusal.record, identifier: identifier, fault: refusal.fault)
                self.perform(self.machine.committed(identifier: identifier, refusal: refusal.status), context: context)
                if self.machine.resumeReading() { context.read() }
            case .refused(let refusal):
                self.machine.refusals.note(refusal.record, identifier: identifier, fault: refusal.fault)
                self.perform(self.machine.refused(refusal.status, identifier: identifier), context: context)
            case .accepted:
                self.perform(self.machine.committed(identifier: identifier, refusal: nil), context: context)
                if self.machine.resumeReading() { context.read() }
            case .reset, .goAway:
                // Fault rules reset binary connections only (the interface has no GOAWAY).
                self.machine.closed()
                ConnectionReset.reset(context.channel)
            }
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
            if var refused = self.machine.refusals.take(identifier: response.identifier, statusByte: response.status.code) {
                refused.push.port = context.channel.localAddress?.port
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

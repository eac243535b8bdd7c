import APNsCore
import APNsStore
import APNsWire
import Logging
import NIOCore
import NIOHPACK
import NIOHTTP2

/// Handles one HTTP/2 stream of the provider API: gathers the request, validates it, hands it to
/// the relay and answers once it is durable. Runs on the connection's event loop.
final class ProviderStreamHandler: ChannelInboundHandler {
    typealias InboundIn = HTTP2Frame.FramePayload
    typealias OutboundOut = HTTP2Frame.FramePayload

    private let context: ProviderContext
    private let connection: NIOLoopBound<ProviderConnectionState>
    private var request: PushRequest?
    private var answered = false

    init(context: ProviderContext, connection: NIOLoopBound<ProviderConnectionState>) {
        self.context = context
        self.connection = connection
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch self.unwrapInboundIn(data) {
        case .headers(let headers):
            if self.request == nil {
                self.request = HTTP2PushRequestDecoder.request(from: headers.headers)
            }
            // A second HEADERS block is a trailer; APNs ignores it.
            if headers.endStream { self.finish(context: context) }
        case .data(let frame):
            if case .byteBuffer(let buffer) = frame.data { self.request?.appendBody(buffer) }
            if frame.endStream { self.finish(context: context) }
        default:
            break
        }
    }

    private func finish(context: ChannelHandlerContext) {
        guard !self.answered, let request = self.request else { return }
        self.answered = true
        let shared = self.context
        let connection = self.connection.value
        let now = shared.clock()
        var credential: ProviderCredential?
        if let decision = connection.authenticate(request.authorization, nowMillis: now, verifier: shared.verifier) {
            switch decision {
            case .refuse(let reason):
                let apnsID = request.apnsID.flatMap { APNsID.isCanonical($0) ? $0 : nil } ?? connection.makeID()
                shared.logger.debug("refused a provider", metadata: ["apns.reason": "\(reason.wire)"])
                self.respond(Rejection(reason: reason, apnsID: apnsID), context: context)
                return
            case .allow(let allowed, _):
                credential = allowed
            }
        }
        switch shared.validator.validate(request, nowMillis: now, source: .http2, generateID: connection.makeID) {
        case .failure(let rejection):
            shared.logger.debug(
                "rejected push",
                metadata: ["apns.reason": "\(rejection.reason.wire)", "apns.detail": "\(rejection.detail ?? "")"]
            )
            self.respond(rejection, context: context)
        case .success(var notification):
            if let credential {
                switch ProviderAuthStateMachine.topic(for: notification.topic, credential: credential) {
                case .success(let topic): notification.topic = topic
                case .failure(let reason):
                    self.respond(Rejection(reason: reason, apnsID: notification.apnsID), context: context)
                    return
                }
            }
            self.accept(notification, context: context)
        }
    }

    private func accept(_ notification: Notification, context: ChannelHandlerContext) {
        let shared = self.context
        shared.relay.accept(notification, on: context.eventLoop).assumeIsolated().whenComplete { result in
            switch result {
            case .success(let outcome):
                if let refusal = Relay.refusal(for: outcome) {
                    let rejection = Rejection(reason: refusal.reason, apnsID: notification.apnsID)
                    self.respond(rejection, timestamp: refusal.timestamp, context: context)
                    return
                }
                let uniqueID = shared.environment == .development ? notification.uniqueID : nil
                let headers = HTTP2PushResponseEncoder.success(apnsID: notification.apnsID, uniqueID: uniqueID)
                context.writeAndFlush(
                    self.wrapOutboundOut(.headers(.init(headers: headers, endStream: true))),
                    promise: nil
                )
            case .failure(let error):
                shared.logger.info("could not store a push", metadata: ["store.error": "\(error)"])
                let rejection = Rejection(reason: Relay.reason(for: error), apnsID: notification.apnsID)
                self.respond(rejection, context: context)
            }
        }
    }

    private func respond(_ rejection: Rejection, timestamp: Int64? = nil, context: ChannelHandlerContext) {
        let response = HTTP2PushResponseEncoder.failure(rejection, timestamp: timestamp, allocator: context.channel.allocator)
        context.write(self.wrapOutboundOut(.headers(.init(headers: response.headers))), promise: nil)
        context.writeAndFlush(
            self.wrapOutboundOut(.data(.init(data: .byteBuffer(response.body), endStream: true))),
            promise: nil
        )
    }
}

/// What the streams of one provider connection share; confined to its event loop.
final class ProviderConnectionState {
    private var ids = APNsIDGenerator()
    /// The connection's authentication state in strict mode; `nil` when any provider is accepted.
    private var auth: ProviderAuthStateMachine?
    /// Lifts the one-stream limit of a connection that has not authenticated yet.
    var unlockStreams: () -> Void = {}

    init(auth: ProviderAuthStateMachine?) {
        self.auth = auth
    }

    /// A new `apns-id` or unique id.
    func makeID() -> String { self.ids.uuid() }

    /// Runs the connection's authentication for one request, in place; `nil` when any provider
    /// is accepted. The first request that authenticates lifts the one-stream limit.
    func authenticate(_ authorization: String?, nowMillis: Int64, verifier: ProviderTokenVerifier) -> ProviderAuthStateMachine.Decision? {
        let decision = self.auth?.authenticate(authorization: authorization, nowSeconds: nowMillis / 1000) {
            verifier.verify(authorization: $0)
        }
        if case .allow(_, unlocksStreams: true)? = decision { self.unlockStreams() }
        return decision
    }
}

/// What every provider stream shares: the relay, the rules and the logger.
struct ProviderContext: Sendable {
    let relay: Relay
    let auth: AuthMode
    let authRules: ProviderAuthStateMachine.Rules
    let verifier: ProviderTokenVerifier
    let validator: PushValidator
    let environment: APNsEnvironment
    let shutdownGrace: TimeAmount
    let clock: @Sendable () -> Int64
    let logger: Logger
}

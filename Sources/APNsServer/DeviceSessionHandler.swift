import APNsCore
import APNsStore
import APNsWire
import Logging
import NIOCore

/// Performs a device connection's protocol: feeds messages to ``DeviceSessionStateMachine`` and
/// carries out its actions against the store and the hub. Runs on the connection's event loop.
final class DeviceSessionHandler: ChannelInboundHandler {
    typealias InboundIn = DeviceFrame
    typealias OutboundOut = DeviceFrame

    private let relay: Relay
    private let logger: Logger
    private var machine = DeviceSessionStateMachine()
    private var context: ChannelHandlerContext?
    private var subscriber: DeviceSubscriber?
    /// Unique ids sent on this connection and not yet acknowledged: a notification that reaches
    /// the session twice (live and from the queue on resume) is sent once.
    private var unacknowledged: Set<String> = []

    init(relay: Relay, logger: Logger) {
        self.relay = relay
        self.logger = logger
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        let bound = NIOLoopBound(self, eventLoop: context.eventLoop)
        self.subscriber = DeviceSubscriber(eventLoop: context.eventLoop) { notification in
            bound.value.deliver(notification)
        }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = self.unwrapInboundIn(data)
        do {
            let message = try DeviceClientMessage(frame: frame)
            self.perform(self.machine.received(message))
        } catch let error as DeviceProtocolError {
            self.perform(self.machine.fail(error.code, error.message))
        } catch {
            self.perform(self.machine.fail(.malformedFrame, "\(error)"))
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if let error = error as? DeviceProtocolError {
            self.perform(self.machine.fail(error.code, error.message))
        } else {
            self.logger.debug("device connection error", metadata: ["device.error": "\(error)"])
            context.close(promise: nil)
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        if let subscriber = self.subscriber {
            for token in self.machine.closed() { self.relay.hub.unsubscribe(token, subscriber) }
        }
        context.fireChannelInactive()
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        // Graceful shutdown: devices reconnect later; what they did not acknowledge stays queued.
        if event is ChannelShouldQuiesceEvent {
            context.close(promise: nil)
            return
        }
        context.fireUserInboundEventTriggered(event)
    }

    /// Sends a notification for a token this connection holds, unless it has expired (the sweeper
    /// may not have removed it yet); on the event loop.
    func deliver(_ notification: Notification) {
        guard self.machine.holds(notification.token) else { return }
        let store = self.relay.store.configuration
        if notification.expiration != 0 {
            let expiry = notification.effectiveExpiration(maximumStorageSeconds: store.maximumStorageSeconds)
            guard expiry > store.clock() / 1000 else { return }
        }
        guard self.unacknowledged.insert(notification.uniqueID).inserted else { return }
        self.send(.notification(notification))
    }

    private func send(_ message: DeviceServerMessage) {
        guard let context = self.context else { return }
        context.writeAndFlush(self.wrapOutboundOut(message.frame(allocator: context.channel.allocator)), promise: nil)
    }

    private func perform(_ action: DeviceSessionStateMachine.Action) {
        guard let context = self.context else { return }
        switch action {
        case .none:
            break
        case .send(let message):
            self.send(message)
        case .register(let topic, let deviceID):
            self.register(topic: topic, deviceID: deviceID, attemptsLeft: 3)
        case .resume(let tokens):
            self.resume(tokens)
        case .unregister(let token, let topic):
            self.relay.submit(.unregister(token: token), on: context.eventLoop).assumeIsolated().whenComplete { result in
                switch result {
                case .success(.unregistered(let timestamp)):
                    if let subscriber = self.subscriber { self.relay.hub.unsubscribe(token, subscriber) }
                    self.perform(self.machine.unregistered(topic: topic, token: token, timestamp: timestamp))
                case .success(let outcome):
                    self.perform(self.machine.fail(.internalError, "unexpected store outcome \(outcome)"))
                case .failure(let error):
                    self.perform(self.machine.fail(.internalError, "could not unregister: \(error)"))
                }
            }
        case .acknowledge(let uniqueID):
            self.unacknowledged.remove(uniqueID)
            self.relay.submit(.acknowledge(uniqueID: uniqueID), on: context.eventLoop).assumeIsolated().whenFailure { error in
                self.perform(self.machine.fail(.internalError, "could not record the acknowledgement: \(error)"))
            }
        case .fail(let error):
            self.logger.debug("device protocol error", metadata: ["device.error": "\(error)"])
            self.send(.error(code: error.code, message: error.message))
            context.close(promise: nil)
        }
    }

    private func register(topic: String, deviceID: String, attemptsLeft: Int) {
        guard let context = self.context else { return }
        let token = DeviceToken.random()
        self.relay.submit(.register(token: token, topic: topic, deviceID: deviceID), on: context.eventLoop)
            .assumeIsolated().whenComplete { result in
                switch result {
                case .success(.registered):
                    if let subscriber = self.subscriber { self.relay.hub.subscribe(token, subscriber) }
                    self.perform(self.machine.registered(topic: topic, token: token))
                case .success(.tokenTaken) where attemptsLeft > 1:
                    self.register(topic: topic, deviceID: deviceID, attemptsLeft: attemptsLeft - 1)
                case .success(let outcome):
                    self.perform(self.machine.fail(.internalError, "could not issue a token: \(outcome)"))
                case .failure(let error):
                    self.perform(self.machine.fail(.internalError, "could not issue a token: \(error)"))
                }
            }
    }

    /// Looks the tokens up, subscribes the valid ones, answers `resumed`, then sends what is queued.
    private func resume(_ tokens: [DeviceToken]) {
        guard let subscriber = self.subscriber else { return }
        let store = self.relay.store
        var results: [ResumeResult] = []
        var topics: [DeviceToken: String] = [:]
        do {
            for token in tokens {
                let record = try store.token(token)
                if record?.unregisteredAt != nil {
                    results.append(ResumeResult(token: token, status: .unregistered))
                } else if record == nil && store.configuration.tokenPolicy == .registered {
                    results.append(ResumeResult(token: token, status: .unknown))
                } else {
                    results.append(ResumeResult(token: token, status: .resumed))
                    topics[token] = record?.topic ?? ""
                    // Subscribe before reading the queue: a notification accepted in between
                    // arrives live and is not sent twice.
                    self.relay.hub.subscribe(token, subscriber)
                }
            }
            self.perform(self.machine.resumed(results, topics: topics))
            for result in results where result.status == .resumed {
                for queued in try store.queued(for: result.token) { self.deliver(queued.notification) }
            }
        } catch {
            self.perform(self.machine.fail(.internalError, "could not read the queue: \(error)"))
        }
    }
}

import APNsCore
import APNsDevice
import APNsWire
import Logging
import NIOCore

/// Performs a device connection's protocol: feeds messages to ``DeviceSessionStateMachine`` and
/// carries out its actions through the relay. Runs on the connection's event loop.
final class DeviceSessionHandler: ChannelInboundHandler {
    typealias InboundIn = DeviceFrame
    typealias OutboundOut = DeviceFrame

    /// The store and delivery: registrations, acknowledgements.
    let relay: Relay
    /// The store's reads: the tokens' records and queues.
    let reader: StoreReader
    /// The phone: presentations, the apps' settings, local notifications, Live Activities.
    let phone: Phone
    /// Where this device subscribes to hear what its phone and ActivityKit do.
    let hub: DeliveryHub
    /// Devices' power states.
    let powerBook: DevicePowerBook
    let logger: Logger
    var machine = DeviceSessionStateMachine()
    private(set) var context: ChannelHandlerContext?
    private(set) var subscriber: DeviceSubscriber?
    private var readingPaused = false
    /// Acknowledgements handed to the store and not yet recorded, and the pongs waiting for them:
    /// a pong says that every frame before its ping was taken in, acknowledgements included.
    private var acknowledgementsInFlight = 0
    private var pongsAfterAcknowledgements: [DeviceServerMessage] = []
    /// The device's power state, as the power book last told this session.
    var power = DevicePower()
    /// This session as its apps' service extension (version 4 and later), made once at welcome.
    var extensionDevice: ExtensionDevice?
    /// What the power state holds back for a later burst, oldest first (still queued in the store).
    var held: [Notification] = []

    init(
        relay: Relay, reader: StoreReader, phone: Phone, hub: DeliveryHub, power: DevicePowerBook,
        access: AdminAccess = AdminAccess(), logger: Logger
    ) {
        (self.relay, self.reader, self.phone, self.hub, self.powerBook) = (relay, reader, phone, hub, power)
        self.logger = logger
        self.machine.access = access
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        let bound = NIOLoopBound(self, eventLoop: context.eventLoop)
        self.subscriber = DeviceSubscriber(
            eventLoop: context.eventLoop,
            handOver: { notification in bound.value.deliver(notification) },
            tell: { messages in bound.value.tell(messages) },
            powerChanged: { power in bound.value.powerChanged(power) }
        )
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = self.unwrapInboundIn(data)
        do {
            let message = try DeviceClientMessage(frame: frame)
            self.perform(self.machine.received(message))
        } catch let error as DeviceProtocolError {
            self.perform(self.machine.receivedInvalid(error.code, error.message))
        } catch {
            self.perform(self.machine.receivedInvalid(.malformedFrame, "\(error)"))
        }
        // While a request is at the store, later ones wait: read no more until it is answered.
        if self.machine.busy, !self.readingPaused { self.setReading(false, context: context) }
    }

    /// Told of a client that spoke another protocol at the device port (a provider at the wrong door).
    var onForeignProtocol: ((any Channel, ForeignProtocol) -> Void)?

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if let error = error as? DeviceProtocolError {
            if let other = error.foreignProtocol { self.onForeignProtocol?(context.channel, other) }
            self.perform(self.machine.receivedInvalid(error.code, error.message))
        } else {
            self.logger.debug("device connection error", metadata: ["device.error": "\(error)"])
            context.close(promise: nil)
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        let deviceID = self.machine.deviceID
        if let subscriber = self.subscriber, let deviceID {
            if self.machine.version >= 3 { self.hub.unsubscribe(device: deviceID, subscriber) }
            self.hub.leave(device: deviceID, subscriber)
        }
        if let subscriber = self.subscriber {
            for token in self.machine.closed() { self.hub.unsubscribe(token, subscriber) }
        }
        // A device the seed declared is the phone's again: it takes what the session left queued.
        if let deviceID, self.phone.ownDevices.owns(device: deviceID) { self.relay.releaseSoon(device: deviceID) }
        context.fireChannelInactive()
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        // Graceful shutdown or silence (devices ping): devices reconnect later, and what they did
        // not acknowledge stays queued.
        if event is ChannelShouldQuiesceEvent || event is IdleStateHandler.IdleStateEvent {
            context.close(promise: nil)
            return
        }
        context.fireUserInboundEventTriggered(event)
    }

    /// Hands a notification to the session, which sends it if it should, unless the device's
    /// power state holds it back; on the event loop.
    func deliver(_ notification: Notification) {
        guard self.power.online else { return }  // it stays queued until the device is back online
        if self.power.holds(notification.priority) != nil {
            self.hold(notification)
            return
        }
        self.handOver(notification)
        // A priority-10 notification wakes the device: what waited goes with it.
        if notification.priority == .immediate, !self.held.isEmpty { self.releaseHeld(all: true) }
    }

    func handOver(_ notification: Notification) {
        let relay = self.relay
        self.perform(
            self.machine.handOver(notification, nowSeconds: relay.nowSeconds, maximumStorageSeconds: relay.maximumStorageSeconds))
    }

    /// What the phone did that a version-2 device hears of (a response, a changed app, a
    /// broadcast's changes), written in order and flushed once; a version-1 device does not know
    /// these messages.
    func tell(_ messages: [DeviceServerMessage]) {
        guard self.machine.version >= 2, let context = self.context else { return }
        for message in messages {
            context.write(self.wrapOutboundOut(message.frame(allocator: context.channel.allocator)), promise: nil)
        }
        context.flush()
    }

    func send(_ message: DeviceServerMessage) {
        guard let context = self.context else { return }
        context.writeAndFlush(self.wrapOutboundOut(message.frame(allocator: context.channel.allocator)), promise: nil)
    }

    func perform(_ action: DeviceSessionStateMachine.Action) {
        guard let context = self.context else { return }
        switch action {
        case .none:
            break
        case .send(.notification(let notification)):
            self.send(.notification(notification))
            // The phone decides how it shows the notification as it hands it over; a version-2
            // device is told right after the notification itself.
            self.present(notification, on: context.eventLoop)
        case .send(.pong(let opaque)) where self.acknowledgementsInFlight > 0:
            self.pongsAfterAcknowledgements.append(.pong(opaque))
        case .send(let message):
            // A version-3 device hears what ActivityKit does for it (tokens, activity changes).
            if case .welcome(let version) = message, let deviceID = self.machine.deviceID, let subscriber = self.subscriber {
                if version >= 3 { self.hub.subscribe(device: deviceID, subscriber) }
                self.hub.join(device: deviceID, subscriber)
                self.power = self.powerBook.power(of: deviceID)
                self.extensionDevice = self.makeExtensionDevice()
            }
            self.send(message)
        case .authorize(let deviceID, let topic, let options, let allow):
            self.authorize(AppInstall(deviceID: deviceID, topic: topic), options: options, allow: allow)
        case .configure(let deviceID, let topic, let document):
            self.configure(AppInstall(deviceID: deviceID, topic: topic), document: document)
        case .respond(let uniqueID, let action, let text, let context):
            self.respond(uniqueID, action: action, text: text, context: context)
        case .local(let request):
            self.local(request)
        case .activities(let deviceID, let message):
            self.activities(deviceID: deviceID, message)
        case .power(let deviceID, let document):
            self.changePower(deviceID: deviceID, document: document)
        case .webApp(let deviceID, let action, let document):
            self.webApp(deviceID: deviceID, action: action, document: document)
        case .extended(let deviceID, let uniqueID, let document):
            self.extended(deviceID: deviceID, uniqueID: uniqueID, document: document)
        case .register(let topic, let deviceID, let environment):
            self.register(topic: topic, deviceID: deviceID, environment: environment)
        case .lookUp(let tokens):
            self.lookUp(tokens)
        case .resume(let tokens, let reply):
            self.resume(tokens, reply: reply)
        case .unregister(let token, let topic):
            self.unregister(token, topic: topic)
        case .acknowledge(let uniqueID):
            self.acknowledge(uniqueID, on: context.eventLoop)
        case .fail(let error):
            self.logger.debug("device protocol error", metadata: ["device.error": "\(error)"])
            self.send(.error(code: error.code, message: error.message))
            context.close(promise: nil)
        }
    }

    /// Records an acknowledgement; the pongs that wait for it go out once none is in flight.
    private func acknowledge(_ uniqueID: String, on eventLoop: any EventLoop) {
        self.phone.notifications.acknowledged(uniqueID)
        self.acknowledgementsInFlight += 1
        self.relay.acknowledge(uniqueID: uniqueID, on: eventLoop).assumeIsolated().whenComplete { result in
            self.acknowledgementsInFlight -= 1
            if case .failure(let error) = result {
                self.perform(self.machine.fail(.internalError, "could not record the acknowledgement: \(error)"))
            }
            guard self.acknowledgementsInFlight == 0 else { return }
            let pongs = self.pongsAfterAcknowledgements
            self.pongsAfterAcknowledgements.removeAll()
            for pong in pongs { self.send(pong) }
        }
    }

    private func unregister(_ token: DeviceToken, topic: String) {
        guard let context = self.context else { return }
        self.relay.unregister(token, on: context.eventLoop).assumeIsolated().whenComplete { result in
            switch result {
            case .success(let timestamp):
                if let subscriber = self.subscriber { self.hub.unsubscribe(token, subscriber) }
                self.perform(self.machine.unregistered(topic: topic, token: token, timestamp: timestamp))
                self.answerWaiting()
            case .failure(let error):
                self.perform(self.machine.fail(.internalError, "could not unregister: \(error)"))
            }
        }
    }

    private func register(topic: String, deviceID: String, environment: APNsEnvironment?) {
        guard let context = self.context else { return }
        Registration(phone: self.phone, relay: self.relay)
            .register(topic: topic, deviceID: deviceID, environment: environment, on: context.eventLoop)
            .assumeIsolated().whenComplete { result in
                switch result {
                case .success(.registered(let token)):
                    if let subscriber = self.subscriber, self.power.online { self.hub.subscribe(token, subscriber) }
                    self.perform(self.machine.registered(topic: topic, token: token))
                    self.answerWaiting()
                case .success(let outcome):
                    self.perform(self.machine.fail(.internalError, "could not issue a token: \(outcome)"))
                case .failure(let error):
                    self.perform(self.machine.fail(.internalError, "could not issue a token: \(error)"))
                }
            }
    }

    /// A request left the store: what waited behind it is answered in order, then reading resumes.
    func answerWaiting() {
        while let action = self.machine.next() { self.perform(action) }
        guard !self.machine.busy, self.readingPaused, let context = self.context else { return }
        self.setReading(true, context: context)
    }

    /// Pauses or resumes reading; a channel that refuses is closed (the device reconnects).
    private func setReading(_ on: Bool, context: ChannelHandlerContext) {
        do {
            try context.channel.syncOptions?.setOption(.autoRead, value: on)
            self.readingPaused = !on
        } catch {
            self.logger.info("could not pause or resume reading a device connection", metadata: ["device.error": "\(error)"])
            context.close(promise: nil)
        }
    }

    /// Reads the presented tokens' records for the machine to decide which resume.
    private func lookUp(_ tokens: [DeviceToken]) {
        do {
            let records = try self.reader.records(of: tokens)
            self.perform(self.machine.lookedUp(records, registeredOnly: self.relay.tokenPolicy == .registered))
        } catch {
            self.perform(self.machine.fail(.internalError, "could not look the tokens up: \(error)"))
        }
    }

    /// Subscribes the resumed tokens, answers `resumed`, then hands over what is queued.
    private func resume(_ tokens: [DeviceToken], reply: DeviceServerMessage) {
        self.send(reply)
        // An offline device holds its tokens but hears nothing until it is back online.
        if self.power.online { self.drain(tokens) }
    }

    /// Routes `tokens` here, then hands over what they have queued.
    func drain(_ tokens: [DeviceToken]) {
        guard let subscriber = self.subscriber else { return }
        // Subscribe before reading the queue: a notification accepted in between arrives live
        // and is not sent twice.
        for token in tokens { self.hub.subscribe(token, subscriber) }
        do {
            for token in tokens {
                for queued in try self.reader.queued(for: token) { self.deliver(queued.notification) }
            }
        } catch {
            self.perform(self.machine.fail(.internalError, "could not read the queue: \(error)"))
        }
    }
}

import APNsCore
import APNsWire

/// The protocol state of one device connection (docs/device-protocol.md), as a value that turns
/// messages and store results into actions for ``DeviceSessionHandler`` to perform. It decides
/// which tokens a connection may resume (the token policy), and which notifications go out:
/// only for tokens it holds, never after their expiration, and once until acknowledged.
struct DeviceSessionStateMachine {
    /// The authorization options `authorize` takes: alert, sound, badge, criticalAlert, provisional.
    static let authorizationBits: UInt8 = 1 | 2 | 4 | 16 | 64
    enum State: Equatable {
        case awaitingHello
        case active(deviceID: String, version: UInt8)
        case closed
    }

    enum Action: Equatable {
        case none
        case send(DeviceServerMessage)
        case register(topic: String, deviceID: String, environment: APNsEnvironment?)
        /// Look these tokens up in the store (then call ``lookedUp(_:registeredOnly:)``).
        case lookUp([DeviceToken])
        /// Route these tokens' notifications here, send `reply`, then hand over what they have queued.
        case resume([DeviceToken], reply: DeviceServerMessage)
        case unregister(DeviceToken, topic: String)
        case acknowledge(uniqueID: String)
        /// Version 2: the app on this device asks for authorization (then ``answered(_:)``).
        case authorize(deviceID: String, topic: String, options: UInt8, allow: Bool)
        /// Version 2: the app changes its settings (then ``answered(_:)``).
        case configure(deviceID: String, topic: String, document: [UInt8])
        /// Version 2: the user responds to a notification (then ``answered(_:)``).
        case respond(uniqueID: String, action: String, text: String?, context: UInt8)
        /// Version 2: the app's local notifications: schedule, list or cancel (then ``answered(_:)``).
        case local(LocalNotificationsRequest)
        /// Version 3: the app's Live Activities: declare types, start, end, list (then ``answered(_:)``).
        case activities(deviceID: String, DeviceClientMessage)
        /// Version 2: the device changes (or asks) its power state; answered at once with `power`
        /// or `refused`.
        case power(deviceID: String, document: [UInt8])
        /// Version 2: a web app on the device and its Web Push subscription (then
        /// ``answered(_:)``, or ``subscribed(webApp:topic:answer:)`` for a new subscription).
        case webApp(deviceID: String, action: String, document: [UInt8])
        /// Version 4: the app's service extension on this device replied for a notification.
        case extended(deviceID: String, uniqueID: String, document: [UInt8])
        /// Send an error frame, then close.
        case fail(DeviceProtocolError)
    }

    private(set) var state = State.awaitingHello
    /// Who may say hello: with an admin token, only a device that brings it.
    var access = AdminAccess()
    /// The tokens this connection holds (registered or resumed here), with their topic ("" if unknown).
    private(set) var tokens: [DeviceToken: String] = [:]
    /// Unique ids sent on this connection and not yet acknowledged: a notification that reaches
    /// the session twice (live and from the queue on resume) is sent once.
    private var unacknowledged: Set<String> = []
    /// A register or unregister is at the store: answers go out in the order of requests, so
    /// what arrives meanwhile (a failure too) waits in `waiting`.
    private(set) var busy = false
    private var waiting: [Result<DeviceClientMessage, DeviceProtocolError>] = []

    /// A message from the device; it waits while an earlier one is at the store.
    mutating func received(_ message: DeviceClientMessage) -> Action {
        guard !self.busy else {
            self.waiting.append(.success(message))
            return .none
        }
        let action = self.process(message)
        switch action {
        case .register, .unregister, .authorize, .configure, .respond, .local, .activities, .webApp: self.busy = true
        default: break
        }
        return action
    }

    /// A frame that did not decode: an error, once every earlier request is answered.
    mutating func receivedInvalid(_ code: DeviceErrorCode, _ message: String) -> Action {
        guard !self.busy else {
            self.waiting.append(.failure(DeviceProtocolError(code, message)))
            return .none
        }
        return self.fail(code, message)
    }

    /// The next waiting message's action, once nothing is at the store; nil when there is none.
    mutating func next() -> Action? {
        guard !self.busy, !self.waiting.isEmpty else { return nil }
        switch self.waiting.removeFirst() {
        case .success(let message): return self.received(message)
        case .failure(let error): return self.fail(error.code, error.message)
        }
    }

    private mutating func hello(version: UInt8, deviceID: String, credential: String?) -> Action {
        guard self.access.admitsDevice(credential) else {
            return self.fail(
                .unauthorized,
                credential == nil
                    ? "this emulator asks devices for its admin token (serve --require-device-token): connect with it (apns-emulator device --admin-token, DeviceClient.connect(adminToken:))"
                    : "the credential is not this emulator's admin token")
        }
        guard DeviceProtocol.versions.contains(version) else {
            return self.fail(
                .unsupportedVersion,
                "this server speaks versions \(DeviceProtocol.versions.lowerBound) to \(DeviceProtocol.versions.upperBound), not \(version)"
            )
        }
        guard !deviceID.isEmpty, deviceID.utf8.count <= DeviceProtocol.maximumIdentifierLength else {
            return self.fail(.invalidArgument, "a device id has 1 to \(DeviceProtocol.maximumIdentifierLength) bytes")
        }
        self.state = .active(deviceID: deviceID, version: version)
        return .send(.welcome(version: version))
    }

    /// The refusal of a topic that is empty or too long; nil for a good one.
    private mutating func refuse(topic: String) -> Action? {
        guard topic.isEmpty || topic.utf8.count > DeviceProtocol.maximumTopicLength else { return nil }
        return self.fail(.invalidArgument, "a topic has 1 to \(DeviceProtocol.maximumTopicLength) bytes")
    }

    private mutating func unregister(topic: String) -> Action {
        // A resumed token whose topic the store did not know is held under "": an empty
        // topic must not reach it.
        if let refusal = self.refuse(topic: topic) { return refusal }
        guard let token = self.tokens.first(where: { $0.value == topic })?.key else {
            return self.fail(.invalidArgument, "this connection holds no token for topic \(topic)")
        }
        return .unregister(token, topic: topic)
    }

    private mutating func acknowledge(_ uniqueID: String) -> Action {
        // Only what this connection was sent and has not acknowledged yet: anything else
        // (an empty id, a stranger's, a second ack) is the device's mistake, refused here
        // before it could reach the store.
        guard self.unacknowledged.remove(uniqueID) != nil else {
            return self.fail(
                .invalidArgument,
                "no notification \(uniqueID.isEmpty ? "with an empty id" : uniqueID) awaits acknowledgement on this connection"
            )
        }
        return .acknowledge(uniqueID: uniqueID)
    }

    private mutating func process(_ message: DeviceClientMessage) -> Action {
        switch (self.state, message) {
        case (.closed, _):
            return .none
        case (.awaitingHello, .hello(let version, let deviceID, let credential)):
            return self.hello(version: version, deviceID: deviceID, credential: credential)
        case (.awaitingHello, _):
            return self.fail(.unexpectedMessage, "the first message must be hello")
        case (.active, .hello):
            return self.fail(.unexpectedMessage, "hello was already received")
        case (.active(let deviceID, let version), .declareActivities), (.active(let deviceID, let version), .startActivity),
            (.active(let deviceID, let version), .endActivity), (.active(let deviceID, let version), .listActivities):
            return self.activities(deviceID: deviceID, version: version, message)
        case (.active(let deviceID, let version), .extended(let uniqueID, let document)):
            return self.extended(deviceID: deviceID, version: version, uniqueID: uniqueID, document: document)
        case (.active(_, let version), _) where message.needsVersion2 && version < 2:
            return self.fail(
                .unexpectedMessage, "\(message.name) needs protocol version 2 (this session said hello with version \(version))")
        case (.active(let deviceID, _), .authorize(let topic, let options, let allow)):
            if let refusal = self.refuse(topic: topic) { return refusal }
            guard options & ~Self.authorizationBits == 0 else {
                return self.fail(
                    .invalidArgument,
                    "authorization options are bits 1 alert, 2 sound, 4 badge, 16 criticalAlert, 64 provisional; \(options) has others"
                )
            }
            return .authorize(deviceID: deviceID, topic: topic, options: options, allow: allow)
        case (.active(let deviceID, _), .configure(let topic, let document)):
            if let refusal = self.refuse(topic: topic) { return refusal }
            return .configure(deviceID: deviceID, topic: topic, document: document)
        case (.active(let deviceID, _), .schedule(let topic, _)), (.active(let deviceID, _), .listPending(let topic)),
            (.active(let deviceID, _), .cancel(let topic, _)):
            if let refusal = self.refuse(topic: topic) { return refusal }
            return switch message {
            case .schedule(_, let document): .local(.schedule(deviceID: deviceID, topic: topic, document: document))
            case .cancel(_, let identifier): .local(.cancel(deviceID: deviceID, topic: topic, identifier: identifier))
            default: .local(.list(deviceID: deviceID, topic: topic))
            }
        case (.active(let deviceID, _), .power(let document)):
            return .power(deviceID: deviceID, document: document)
        case (.active(let deviceID, _), .webApp(let action, let document)):
            return self.webApp(deviceID: deviceID, action: action, document: document)
        case (.active, .respond(let uniqueID, let action, let text, let context)):
            guard context <= 2 else {
                return self.fail(.invalidArgument, "a response context is 0 (as shown), 1 (banner) or 2 (alert), not \(context)")
            }
            return .respond(uniqueID: uniqueID, action: action, text: text, context: context)
        case (.active(let deviceID, _), .register(let topic, let environment)):
            if let refusal = self.refuse(topic: topic) { return refusal }
            return .register(topic: topic, deviceID: deviceID, environment: environment)
        case (.active, .resume(let tokens)):
            return .lookUp(tokens)
        case (.active, .unregister(let topic)):
            return self.unregister(topic: topic)
        case (.active, .ack(let uniqueID)):
            return self.acknowledge(uniqueID)
        case (.active, .ping(let opaque)):
            return .send(.pong(opaque))
        }
    }

    /// A version-2 request (authorize, configure, respond, local notifications) was carried out;
    /// `answer` goes out.
    mutating func answered(_ answer: DeviceServerMessage) -> Action {
        self.busy = false
        guard case .active = self.state else { return .none }
        return .send(answer)
    }

    /// A web app on this device subscribed: this session holds its token (its pushes come here,
    /// and it resumes it like a registered one), then `answer` goes out.
    mutating func subscribed(webApp token: DeviceToken, topic: String, answer: DeviceServerMessage) -> Action {
        self.busy = false
        guard case .active = self.state else { return .none }
        self.tokens[token] = topic
        return .send(answer)
    }

    /// The store issued `token` for `topic`.
    mutating func registered(topic: String, token: DeviceToken) -> Action {
        self.busy = false
        guard case .active = self.state else { return .none }
        self.tokens[token] = topic
        return .send(.registered(topic: topic, token: token))
    }

    /// The tokens presented in `resume` were looked up in the store. An unregistered token is
    /// refused, and so is one the store never issued when only registered tokens are taken
    /// (`registeredOnly`); the others are resumed, with their topic ("" when unknown).
    mutating func lookedUp(_ records: [(token: DeviceToken, record: TokenRecord?)], registeredOnly: Bool) -> Action {
        guard case .active = self.state else { return .none }
        var results: [ResumeResult] = []
        var resumed: [DeviceToken] = []
        for (token, record) in records {
            if record?.unregisteredAt != nil {
                results.append(ResumeResult(token: token, status: .unregistered))
            } else if record == nil && registeredOnly {
                results.append(ResumeResult(token: token, status: .unknown))
            } else {
                results.append(ResumeResult(token: token, status: .resumed))
                self.tokens[token] = record?.topic ?? ""
                resumed.append(token)
            }
        }
        return .resume(resumed, reply: .resumed(results))
    }

    /// A notification for this connection (live, or from a queue on resume): sent when the
    /// connection holds its token, it has not expired (the sweeper may not have removed it yet;
    /// expiration 0 was decided at acceptance), and it is not already awaiting acknowledgement.
    mutating func handOver(_ notification: Notification, nowSeconds: Int64, maximumStorageSeconds: Int64) -> Action {
        guard self.holds(notification.token) else { return .none }
        if notification.hasExpired(nowSeconds: nowSeconds, maximumStorageSeconds: maximumStorageSeconds) { return .none }
        guard self.unacknowledged.insert(notification.uniqueID).inserted else { return .none }
        return .send(.notification(notification))
    }

    /// The store unregistered `token`.
    mutating func unregistered(topic: String, token: DeviceToken, timestamp: Int64) -> Action {
        self.busy = false
        guard case .active = self.state else { return .none }
        self.tokens[token] = nil
        return .send(.unregistered(topic: topic, token: token, timestamp: timestamp))
    }

    /// Something went wrong that ends the session.
    mutating func fail(_ code: DeviceErrorCode, _ message: String) -> Action {
        guard self.state != .closed else { return .none }
        self.state = .closed
        return .fail(DeviceProtocolError(code, message))
    }

    /// The connection closed.
    mutating func closed() -> [DeviceToken] {
        self.state = .closed
        defer { self.tokens = [:] }
        return Array(self.tokens.keys)
    }

    /// Whether notifications for `token` go to this connection.
    func holds(_ token: DeviceToken) -> Bool {
        guard case .active = self.state else { return false }
        return self.tokens[token] != nil
    }
}

import APNsCore
import APNsWire

/// The protocol state of one device connection (docs/device-protocol.md), as a value that turns
/// messages and store results into actions for ``DeviceSessionHandler`` to perform.
struct DeviceSessionStateMachine {
    enum State: Equatable {
        case awaitingHello
        case active(deviceID: String)
        case closed
    }

    enum Action: Equatable {
        case none
        case send(DeviceServerMessage)
        case register(topic: String, deviceID: String)
        case resume([DeviceToken])
        case unregister(DeviceToken, topic: String)
        case acknowledge(uniqueID: String)
        /// Send an error frame, then close.
        case fail(DeviceProtocolError)
    }

    private(set) var state = State.awaitingHello
    /// The tokens this connection holds (registered or resumed here), with their topic ("" if unknown).
    private(set) var tokens: [DeviceToken: String] = [:]

    mutating func received(_ message: DeviceClientMessage) -> Action {
        switch (self.state, message) {
        case (.closed, _):
            return .none
        case (.awaitingHello, .hello(let version, let deviceID)):
            guard version == DeviceProtocol.version else {
                return self.fail(.unsupportedVersion, "this server speaks version \(DeviceProtocol.version), not \(version)")
            }
            guard !deviceID.isEmpty, deviceID.utf8.count <= DeviceProtocol.maximumIdentifierLength else {
                return self.fail(.invalidArgument, "a device id has 1 to \(DeviceProtocol.maximumIdentifierLength) bytes")
            }
            self.state = .active(deviceID: deviceID)
            return .send(.welcome(version: DeviceProtocol.version))
        case (.awaitingHello, _):
            return self.fail(.unexpectedMessage, "the first message must be hello")
        case (.active, .hello):
            return self.fail(.unexpectedMessage, "hello was already received")
        case (.active(let deviceID), .register(let topic)):
            guard !topic.isEmpty, topic.utf8.count <= DeviceProtocol.maximumTopicLength else {
                return self.fail(.invalidArgument, "a topic has 1 to \(DeviceProtocol.maximumTopicLength) bytes")
            }
            return .register(topic: topic, deviceID: deviceID)
        case (.active, .resume(let tokens)):
            return .resume(tokens)
        case (.active, .unregister(let topic)):
            guard let token = self.tokens.first(where: { $0.value == topic })?.key else {
                return self.fail(.invalidArgument, "this connection holds no token for topic \(topic)")
            }
            return .unregister(token, topic: topic)
        case (.active, .ack(let uniqueID)):
            return .acknowledge(uniqueID: uniqueID)
        case (.active, .ping(let opaque)):
            return .send(.pong(opaque))
        }
    }

    /// The store issued `token` for `topic`.
    mutating func registered(topic: String, token: DeviceToken) -> Action {
        guard case .active = self.state else { return .none }
        self.tokens[token] = topic
        return .send(.registered(topic: topic, token: token))
    }

    /// The tokens presented in `resume` were looked up; `topics` names those that were resumed.
    mutating func resumed(_ results: [ResumeResult], topics: [DeviceToken: String]) -> Action {
        guard case .active = self.state else { return .none }
        for result in results where result.status == .resumed { self.tokens[result.token] = topics[result.token] ?? "" }
        return .send(.resumed(results))
    }

    /// The store unregistered `token`.
    mutating func unregistered(topic: String, token: DeviceToken, timestamp: Int64) -> Action {
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

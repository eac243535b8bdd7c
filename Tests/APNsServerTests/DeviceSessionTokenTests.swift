import APNsCore
import APNsStore
import APNsWire
import Testing

@testable import APNsServer

/// The device session's tokens: register, resume, hand-over and unregister.
@Suite("Device session state machine: tokens")
struct DeviceSessionTokenTests {
    static let token = DeviceSessionStateMachineTests.token
    static let other = DeviceSessionStateMachineTests.other

    func active() -> DeviceSessionStateMachine { DeviceSessionStateMachineTests().active() }

    func failureCode(_ action: DeviceSessionStateMachine.Action) -> DeviceErrorCode? {
        DeviceSessionStateMachineTests().failureCode(action)
    }

    @Test("register asks the store, and the token is held once issued")
    func register() {
        var machine = self.active()
        #expect(
            machine.received(.register(topic: "com.example.app"))
                == .register(topic: "com.example.app", deviceID: "phone", environment: nil))
        #expect(!machine.holds(Self.token))
        #expect(
            machine.registered(topic: "com.example.app", token: Self.token)
                == .send(.registered(topic: "com.example.app", token: Self.token)))
        #expect(machine.holds(Self.token))
        var bad = self.active()
        #expect(self.failureCode(bad.received(.register(topic: ""))) == .invalidArgument)
    }

    static func record(_ token: DeviceToken, topic: String = "com.example.app", unregisteredAt: Int64? = nil) -> TokenRecord {
        TokenRecord(token: token, topic: topic, deviceID: "phone", registeredAt: 1, unregisteredAt: unregisteredAt)
    }

    @Test("resume holds only the tokens that were resumed, with their topics")
    func resume() {
        var machine = self.active()
        #expect(machine.received(.resume(tokens: [Self.token, Self.other])) == .lookUp([Self.token, Self.other]))
        let results = [ResumeResult(token: Self.token, status: .resumed), ResumeResult(token: Self.other, status: .unregistered)]
        let records = [
            (token: Self.token, record: Optional(Self.record(Self.token))),
            (token: Self.other, record: Self.record(Self.other, unregisteredAt: 5)),
        ]
        #expect(machine.lookedUp(records, registeredOnly: false) == .resume([Self.token], reply: .resumed(results)))
        #expect(machine.holds(Self.token))
        #expect(!machine.holds(Self.other))
        #expect(machine.received(.unregister(topic: "com.example.app")) == .unregister(Self.token, topic: "com.example.app"))
    }

    @Test("a token the store never issued resumes under the open policy, and is unknown under the registered one")
    func resumeTokenPolicy() {
        let records: [(token: DeviceToken, record: TokenRecord?)] = [(Self.token, nil)]
        var open = self.active()
        #expect(
            open.lookedUp(records, registeredOnly: false)
                == .resume([Self.token], reply: .resumed([ResumeResult(token: Self.token, status: .resumed)])))
        #expect(open.tokens[Self.token] == "")
        var registered = self.active()
        #expect(
            registered.lookedUp(records, registeredOnly: true)
                == .resume([], reply: .resumed([ResumeResult(token: Self.token, status: .unknown)])))
        #expect(!registered.holds(Self.token))
    }

    @Test("hand-over: only held tokens, never after expiry, once until acknowledged")
    func handOver() {
        var machine = self.active()
        _ = machine.registered(topic: "com.example.app", token: Self.token)
        func push(_ n: Int, token: DeviceToken = Self.token, expiration: Int64? = nil) -> Notification {
            Notification(
                apnsID: "a\(n)", uniqueID: "u\(n)", token: token, topic: "com.example.app", pushType: .alert,
                priority: .immediate,
                expiration: expiration, collapseID: nil, payload: Array("{}".utf8), receivedAt: 1_000_000, source: .http2
            )
        }
        let now: Int64 = 2_000
        #expect(machine.handOver(push(1), nowSeconds: now, maximumStorageSeconds: 86_400) == .send(.notification(push(1))))
        // Live and again from the queue on resume: sent once.
        #expect(machine.handOver(push(1), nowSeconds: now, maximumStorageSeconds: 86_400) == .none)
        // Acknowledged, it may go out again (a redelivery after the queue kept it).
        _ = machine.received(.ack(uniqueID: "u1"))
        #expect(machine.handOver(push(1), nowSeconds: now, maximumStorageSeconds: 86_400) == .send(.notification(push(1))))
        #expect(machine.handOver(push(2, token: Self.other), nowSeconds: now, maximumStorageSeconds: 86_400) == .none)
        #expect(machine.handOver(push(3, expiration: now), nowSeconds: now, maximumStorageSeconds: 86_400) == .none)
        #expect(machine.handOver(push(4, expiration: now + 1), nowSeconds: now, maximumStorageSeconds: 86_400) != .none)
        // Expiration 0 was decided at acceptance: a device connected then gets it.
        #expect(machine.handOver(push(5, expiration: 0), nowSeconds: now, maximumStorageSeconds: 86_400) != .none)
        // No expiration: kept at most the maximum storage time after receipt (receivedAt is in ms).
        #expect(machine.handOver(push(6), nowSeconds: 1_000 + 60, maximumStorageSeconds: 60) == .none)
    }

    @Test("unregister needs a token for that topic on this connection; afterwards it is no longer held")
    func unregister() {
        var machine = self.active()
        _ = machine.registered(topic: "com.example.app", token: Self.token)
        #expect(machine.received(.unregister(topic: "com.example.app")) == .unregister(Self.token, topic: "com.example.app"))
        #expect(
            machine.unregistered(topic: "com.example.app", token: Self.token, timestamp: 5)
                == .send(.unregistered(topic: "com.example.app", token: Self.token, timestamp: 5))
        )
        #expect(!machine.holds(Self.token))
        #expect(self.failureCode(machine.received(.unregister(topic: "com.example.app"))) == .invalidArgument)
    }

    @Test("ack and ping; closing releases the held tokens and nothing is delivered after")
    func ackPingClose() {
        var machine = self.active()
        #expect(machine.received(.ping(9)) == .send(.pong(9)))
        _ = machine.registered(topic: "t", token: Self.token)
        #expect(machine.closed() == [Self.token])
        #expect(!machine.holds(Self.token))
        #expect(machine.received(.ping(1)) == .none)
        #expect(machine.registered(topic: "t", token: Self.other) == .none)
    }

    @Test("an ack is for a notification this connection was sent: empty, unknown or repeated ids are errors (issue 13, item 7)")
    func acks() {
        var machine = self.active()
        _ = machine.registered(topic: "com.example.app", token: Self.token)
        let push = Notification(
            apnsID: "a", uniqueID: "u1", token: Self.token, topic: "com.example.app", pushType: .alert, priority: .immediate,
            expiration: nil, collapseID: nil, payload: Array("{}".utf8), receivedAt: 1_000_000, source: .http2
        )
        _ = machine.handOver(push, nowSeconds: 1_000, maximumStorageSeconds: 86_400)
        #expect(machine.received(.ack(uniqueID: "u1")) == .acknowledge(uniqueID: "u1"))
        #expect(self.failureCode(machine.received(.ack(uniqueID: "u1"))) == .invalidArgument)

        var empty = self.active()
        #expect(self.failureCode(empty.received(.ack(uniqueID: ""))) == .invalidArgument)
        var stranger = self.active()
        #expect(self.failureCode(stranger.received(.ack(uniqueID: "never-sent"))) == .invalidArgument)
    }

    @Test("unregister with an empty topic is an error, even when a resumed token's topic is unknown (issue 13, item 6)")
    func unregisterEmptyTopic() {
        var machine = self.active()
        _ = machine.lookedUp([(token: Self.token, record: nil)], registeredOnly: false)
        #expect(machine.tokens[Self.token] == "")
        #expect(self.failureCode(machine.received(.unregister(topic: ""))) == .invalidArgument)
    }
}

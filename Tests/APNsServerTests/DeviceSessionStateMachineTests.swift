import APNsCore
import APNsWire
import Testing

@testable import APNsServer

@Suite("Device session state machine")
struct DeviceSessionStateMachineTests {
    static let token = DeviceToken(bytes: [UInt8](repeating: 1, count: 32))!
    static let other = DeviceToken(bytes: [UInt8](repeating: 2, count: 32))!

    func active() -> DeviceSessionStateMachine {
        var machine = DeviceSessionStateMachine()
        _ = machine.received(.hello(version: 1, deviceID: "phone"))
        return machine
    }

    func failureCode(_ action: DeviceSessionStateMachine.Action) -> DeviceErrorCode? {
        if case .fail(let error) = action { return error.code }
        return nil
    }

    @Test("hello first: welcome, then the session is active")
    func hello() {
        var machine = DeviceSessionStateMachine()
        #expect(machine.received(.hello(version: 1, deviceID: "phone")) == .send(.welcome(version: 1)))
        #expect(machine.state == .active(deviceID: "phone"))
    }

    @Test("anything before hello, a second hello, a wrong version or a bad device id ends the session")
    func helloErrors() {
        var early = DeviceSessionStateMachine()
        #expect(self.failureCode(early.received(.ping(1))) == .unexpectedMessage)
        #expect(early.state == .closed)
        #expect(early.received(.hello(version: 1, deviceID: "x")) == .none)

        var twice = self.active()
        #expect(self.failureCode(twice.received(.hello(version: 1, deviceID: "phone"))) == .unexpectedMessage)

        var version = DeviceSessionStateMachine()
        #expect(self.failureCode(version.received(.hello(version: 2, deviceID: "phone"))) == .unsupportedVersion)

        var empty = DeviceSessionStateMachine()
        #expect(self.failureCode(empty.received(.hello(version: 1, deviceID: ""))) == .invalidArgument)
        var long = DeviceSessionStateMachine()
        #expect(self.failureCode(long.received(.hello(version: 1, deviceID: String(repeating: "d", count: 129)))) == .invalidArgument)
    }

    @Test("register asks the store, and the token is held once issued")
    func register() {
        var machine = self.active()
        #expect(machine.received(.register(topic: "com.example.app")) == .register(topic: "com.example.app", deviceID: "phone"))
        #expect(!machine.holds(Self.token))
        #expect(machine.registered(topic: "com.example.app", token: Self.token) == .send(.registered(topic: "com.example.app", token: Self.token)))
        #expect(machine.holds(Self.token))
        var bad = self.active()
        #expect(self.failureCode(bad.received(.register(topic: ""))) == .invalidArgument)
    }

    @Test("resume holds only the tokens that were resumed, with their topics")
    func resume() {
        var machine = self.active()
        #expect(machine.received(.resume(tokens: [Self.token, Self.other])) == .resume([Self.token, Self.other]))
        let results = [ResumeResult(token: Self.token, status: .resumed), ResumeResult(token: Self.other, status: .unregistered)]
        #expect(machine.resumed(results, topics: [Self.token: "com.example.app"]) == .send(.resumed(results)))
        #expect(machine.holds(Self.token))
        #expect(!machine.holds(Self.other))
        #expect(machine.received(.unregister(topic: "com.example.app")) == .unregister(Self.token, topic: "com.example.app"))
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
        #expect(machine.received(.ack(uniqueID: "u")) == .acknowledge(uniqueID: "u"))
        #expect(machine.received(.ping(9)) == .send(.pong(9)))
        _ = machine.registered(topic: "t", token: Self.token)
        #expect(machine.closed() == [Self.token])
        #expect(!machine.holds(Self.token))
        #expect(machine.received(.ping(1)) == .none)
        #expect(machine.registered(topic: "t", token: Self.other) == .none)
    }
}

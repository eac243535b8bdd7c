import APNsCore
import APNsStore
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
        #expect(machine.state == .active(deviceID: "phone", version: 1))
        var second = DeviceSessionStateMachine()
        #expect(second.received(.hello(version: 2, deviceID: "phone")) == .send(.welcome(version: 2)))
        #expect(second.version == 2)
    }

    @Test("version-2 requests: refused on a version-1 session, held in order on a version-2 one")
    func version2() {
        var old = self.active()
        #expect(
            self.failureCode(old.received(.authorize(topic: "com.example.app", options: 7, allow: true))) == .unexpectedMessage)

        var machine = DeviceSessionStateMachine()
        _ = machine.received(.hello(version: 2, deviceID: "phone"))
        #expect(
            machine.received(.authorize(topic: "com.example.app", options: 3, allow: true))
                == .authorize(deviceID: "phone", topic: "com.example.app", options: 3, allow: true))
        #expect(machine.busy)
        // A ping behind it waits for the answer.
        #expect(machine.received(.ping(9)) == .none)
        let answer = DeviceServerMessage.authorization(
            topic: "com.example.app", status: 2, options: 3, granted: true, prompted: true)
        #expect(machine.answered(answer) == .send(answer))
        #expect(machine.next() == .send(.pong(9)))
        #expect(
            self.failureCode(machine.received(.authorize(topic: "com.example.app", options: 8, allow: true))) == .invalidArgument)

        var responding = DeviceSessionStateMachine()
        _ = responding.received(.hello(version: 2, deviceID: "phone"))
        #expect(
            self.failureCode(responding.received(.respond(uniqueID: "u", action: "default", text: nil, context: 3)))
                == .invalidArgument)
    }

    @Test(
        "power: refused on a version-1 session; on version 2 for the session's own device, answered at once (nothing held behind it)"
    )
    func power() {
        var old = self.active()
        #expect(self.failureCode(old.received(.power(document: Array("{}".utf8)))) == .unexpectedMessage)

        var machine = DeviceSessionStateMachine()
        _ = machine.received(.hello(version: 2, deviceID: "phone"))
        let document = Array(#"{"lowPowerMode": true}"#.utf8)
        #expect(machine.received(.power(document: document)) == .power(deviceID: "phone", document: document))
        #expect(!machine.busy)
        #expect(machine.received(.ping(1)) == .send(.pong(1)))
    }

    @Test(
        "web-app: refused on version 1 and for an unknown action; a subscription's token is the session's, answered in order"
    )
    func webApp() throws {
        var old = self.active()
        #expect(self.failureCode(old.received(.webApp(action: "list", document: Array("{}".utf8)))) == .unexpectedMessage)

        var machine = DeviceSessionStateMachine()
        _ = machine.received(.hello(version: 2, deviceID: "mac"))
        let document = Array(#"{"origin": "https://a.example"}"#.utf8)
        #expect(
            machine.received(.webApp(action: "subscribe", document: document))
                == .webApp(deviceID: "mac", action: "subscribe", document: document))
        #expect(machine.busy)
        #expect(machine.received(.ping(7)) == .none, "waits behind the subscription")
        let token = try #require(DeviceToken(hex: String(repeating: "ab", count: 32)))
        #expect(
            machine.subscribed(webApp: token, topic: "https://a.example", answer: .webApp(document: []))
                == .send(.webApp(document: [])))
        #expect(machine.tokens[token] == "https://a.example" && !machine.busy)
        #expect(machine.next() == .send(.pong(7)))

        var wrong = DeviceSessionStateMachine()
        _ = wrong.received(.hello(version: 2, deviceID: "mac"))
        #expect(self.failureCode(wrong.received(.webApp(action: "delete", document: []))) == .invalidArgument)
    }

    @Test("local notification requests go to the session's own app, one at a time; version 1 and empty topics are refused")
    func localNotifications() {
        var old = self.active()
        #expect(self.failureCode(old.received(.listPending(topic: "com.example.app"))) == .unexpectedMessage)

        var machine = DeviceSessionStateMachine()
        _ = machine.received(.hello(version: 2, deviceID: "phone"))
        #expect(
            machine.received(.schedule(topic: "t", document: [1]))
                == .local(.schedule(deviceID: "phone", topic: "t", document: [1])))
        #expect(machine.received(.cancel(topic: "t", identifier: nil)) == .none)
        #expect(machine.answered(.scheduled(topic: "t", document: [2])) == .send(.scheduled(topic: "t", document: [2])))
        #expect(machine.next() == .local(.cancel(deviceID: "phone", topic: "t", identifier: nil)))
        #expect(machine.answered(.cancelled(topic: "t", removed: 1)) == .send(.cancelled(topic: "t", removed: 1)))
        #expect(machine.received(.listPending(topic: "t")) == .local(.list(deviceID: "phone", topic: "t")))
        _ = machine.answered(.pending(topic: "t", document: []))
        #expect(self.failureCode(machine.received(.listPending(topic: ""))) == .invalidArgument)
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
        #expect(self.failureCode(version.received(.hello(version: 5, deviceID: "phone"))) == .unsupportedVersion)

        var empty = DeviceSessionStateMachine()
        #expect(self.failureCode(empty.received(.hello(version: 1, deviceID: ""))) == .invalidArgument)
        var long = DeviceSessionStateMachine()
        #expect(
            self.failureCode(long.received(.hello(version: 1, deviceID: String(repeating: "d", count: 129)))) == .invalidArgument)
    }

    @Test("issue 51: with an admin token a hello must bring it (unauthorized otherwise, as APNs asks a device for its certificate)")
    func helloCredential() {
        var bare = DeviceSessionStateMachine()
        bare.access = AdminAccess(token: "device-secret")
        #expect(self.failureCode(bare.received(.hello(version: 3, deviceID: "phone"))) == .unauthorized)
        #expect(bare.state == .closed)
        var wrong = DeviceSessionStateMachine()
        wrong.access = AdminAccess(token: "device-secret")
        #expect(self.failureCode(wrong.received(.hello(version: 3, deviceID: "phone", credential: "device-secreT"))) == .unauthorized)
        var right = DeviceSessionStateMachine()
        right.access = AdminAccess(token: "device-secret")
        #expect(right.received(.hello(version: 3, deviceID: "phone", credential: "device-secret")) == .send(.welcome(version: 3)))
        // Without a token, a credential is not looked at.
        var open = DeviceSessionStateMachine()
        #expect(open.received(.hello(version: 3, deviceID: "phone", credential: "anything")) == .send(.welcome(version: 3)))
    }

    @Test("version 3's Live Activity messages: carried out on a version-3 session, an error on version 2")
    func activities() {
        var three = DeviceSessionStateMachine()
        #expect(three.received(.hello(version: 3, deviceID: "phone")) == .send(.welcome(version: 3)))
        let start = DeviceClientMessage.startActivity(topic: "com.example.app", document: Array("{}".utf8))
        #expect(three.received(start) == .activities(deviceID: "phone", start))
        #expect(three.busy)
        var two = DeviceSessionStateMachine()
        _ = two.received(.hello(version: 2, deviceID: "phone"))
        #expect(self.failureCode(two.received(.listActivities(topic: "com.example.app"))) == .unexpectedMessage)
        var empty = DeviceSessionStateMachine()
        _ = empty.received(.hello(version: 3, deviceID: "phone"))
        #expect(self.failureCode(empty.received(.listActivities(topic: ""))) == .invalidArgument)
    }
}

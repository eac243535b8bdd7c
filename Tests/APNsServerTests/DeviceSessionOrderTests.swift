import APNsCore
import APNsStore
import APNsWire
import Testing

@testable import APNsServer

@Suite("Device session state machine: answers in request order")
struct DeviceSessionOrderTests {
    static let token = DeviceToken(bytes: [UInt8](repeating: 1, count: 32))!

    func active() -> DeviceSessionStateMachine {
        var machine = DeviceSessionStateMachine()
        _ = machine.received(.hello(version: 1, deviceID: "phone"))
        return machine
    }

    @Test("register then unregister and ping in one write: the unregister and the pong wait for registered")
    func registerThenUnregister() {
        var machine = self.active()
        #expect(machine.received(.register(topic: "t")) == .register(topic: "t", deviceID: "phone", environment: nil))
        #expect(machine.busy)
        #expect(machine.received(.unregister(topic: "t")) == .none)
        #expect(machine.received(.ping(7)) == .none)
        #expect(machine.next() == nil, "nothing goes out while the register is at the store")
        #expect(machine.registered(topic: "t", token: Self.token) == .send(.registered(topic: "t", token: Self.token)))
        #expect(machine.next() == .unregister(Self.token, topic: "t"))
        #expect(machine.next() == nil, "the ping waits for the unregister")
        #expect(
            machine.unregistered(topic: "t", token: Self.token, timestamp: 5)
                == .send(.unregistered(topic: "t", token: Self.token, timestamp: 5)))
        #expect(machine.next() == .send(.pong(7)))
        #expect(machine.next() == nil)
        #expect(!machine.busy)
    }

    @Test("a bad frame after a register does not swallow registered: the error goes out after it")
    func errorAfterRegister() {
        var machine = self.active()
        _ = machine.received(.register(topic: "t"))
        #expect(machine.receivedInvalid(.malformedFrame, "bad") == .none)
        #expect(machine.registered(topic: "t", token: Self.token) == .send(.registered(topic: "t", token: Self.token)))
        #expect(machine.next() == .fail(DeviceProtocolError(.malformedFrame, "bad")))
        #expect(machine.state == .closed)
        #expect(machine.next() == nil)
    }

    @Test("with nothing at the store, answers and errors go out at once")
    func idle() {
        var machine = self.active()
        #expect(machine.received(.ping(1)) == .send(.pong(1)))
        #expect(machine.receivedInvalid(.malformedFrame, "bad") == .fail(DeviceProtocolError(.malformedFrame, "bad")))
    }
}

import APNsCore
import APNsWire
import Testing

@testable import APNsServer

@Suite("Gateway session state machine")
struct GatewaySessionStateMachineTests {
    typealias Machine = GatewaySessionStateMachine

    func error(_ status: BinaryStatus, _ identifier: UInt32) -> Machine.Action {
        .writeErrorAndClose(BinaryErrorResponse(status: status, identifier: identifier))
    }

    @Test("a refusal with nothing in flight answers at once, then everything is discarded")
    func immediateRefusal() {
        var machine = Machine()
        #expect(machine.refused(.invalidTokenSize, identifier: 7) == self.error(.invalidTokenSize, 7))
        #expect(!machine.isAccepting)
        #expect(machine.refused(.missingPayload, identifier: 8) == .none)
    }

    @Test("a refusal waits until earlier notifications are committed")
    func refusalWaitsForCommits() {
        var machine = Machine()
        machine.submitted()
        machine.submitted()
        #expect(machine.refused(.protocolError, identifier: 3) == .none)
        #expect(!machine.isAccepting)
        #expect(machine.committed(identifier: 1, refusal: nil) == .none)
        #expect(machine.committed(identifier: 2, refusal: nil) == self.error(.protocolError, 3))
        #expect(machine.lastProcessed == 2)
    }

    @Test("an earlier notification the store refuses is reported instead of a later bad one")
    func storeRefusalComesFirst() {
        var machine = Machine()
        machine.submitted()
        machine.submitted()
        #expect(machine.refused(.protocolError, identifier: 3) == .none)
        #expect(machine.committed(identifier: 1, refusal: .processingError) == .none)
        // The second failed with the same commit; the first failure stays the one reported.
        #expect(machine.committed(identifier: 2, refusal: .processingError) == self.error(.processingError, 1))
    }

    @Test("a store refusal while open stops taking notifications")
    func storeRefusalWhileOpen() {
        var machine = Machine()
        machine.submitted()
        #expect(machine.committed(identifier: 5, refusal: .invalidToken) == self.error(.invalidToken, 5))
        #expect(!machine.isAccepting)
    }

    @Test("shutdown reports status 10 with the last processed identifier, after in-flight commits")
    func shutdown() {
        var machine = Machine()
        machine.submitted()
        #expect(machine.committed(identifier: 4, refusal: nil) == .none)
        machine.submitted()
        #expect(machine.shutdown() == .none)
        #expect(machine.committed(identifier: 9, refusal: nil) == self.error(.shutdown, 9))
        var fresh = Machine()
        #expect(fresh.shutdown() == self.error(.shutdown, 0))
    }

    @Test("idle closes a quiet connection, but not one with work in flight")
    func idle() {
        var busy = Machine()
        busy.submitted()
        #expect(busy.idle() == .none)
        #expect(busy.isAccepting)
        var quiet = Machine()
        #expect(quiet.idle() == .close)
        #expect(!quiet.isAccepting)
    }

    @Test("after the connection closed, answers from the store change nothing")
    func closed() {
        var machine = Machine()
        machine.submitted()
        machine.closed()
        #expect(machine.committed(identifier: 1, refusal: .processingError) == .none)
        #expect(machine.shutdown() == .none)
    }
}

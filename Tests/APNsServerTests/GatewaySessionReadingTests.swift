import APNsCore
import APNsInspection
import APNsWire
import Testing

@testable import APNsServer

@Suite("Gateway session state machine: reading, lingering and the journal's refusals")
struct GatewaySessionReadingTests {
    typealias Machine = GatewaySessionStateMachine

    static func rejected(_ identifier: UInt32, status: BinaryStatus) -> RejectedPush {
        let request = BinaryPushRequest(command: 2, identifier: identifier, token: [1, 2, 3], payload: Array("{}".utf8))
        return RejectedPush(request, id: "r\(identifier)", topic: nil, statusByte: status.code, receivedAt: 0)
    }

    @Test("reading is held at the in-flight limit and resumes once half of it has committed")
    func flowControl() {
        var machine = Machine(maximumInFlight: 4)
        for _ in 0..<3 { machine.submitted() }
        #expect(machine.read() == .read)
        machine.submitted()
        #expect(machine.read() == .hold)
        #expect(machine.committed(identifier: 1, refusal: nil) == .none)
        let notYet = machine.resumeReading()
        #expect(!notYet, "3 in flight is not below half of 4")
        #expect(machine.committed(identifier: 2, refusal: nil) == .none)
        let stillNot = machine.resumeReading()
        #expect(!stillNot)
        #expect(machine.committed(identifier: 3, refusal: nil) == .none)
        let resumed = machine.resumeReading()
        #expect(resumed, "1 in flight: the held read goes out")
        let again = machine.resumeReading()
        #expect(!again, "only once")
    }

    @Test("after a failure nothing is read until the error response is out; then reads are taken and dropped")
    func lingering() {
        var machine = Machine(maximumInFlight: 10, lingerLimit: 3)
        machine.submitted()
        #expect(machine.refused(.invalidTokenSize, identifier: 9) == .none)
        #expect(machine.read() == .hold)
        #expect(
            machine.committed(identifier: 8, refusal: nil)
                == .writeErrorAndClose(BinaryErrorResponse(status: .invalidTokenSize, identifier: 9)))
        machine.errorResponseWritten()
        #expect(machine.read() == .read)
        // The provider keeps sending for a while: each quiet check that saw reads waits again.
        machine.readCompleted()
        let busy = machine.lingerCheck()
        #expect(!busy)
        let quiet = machine.lingerCheck()
        #expect(quiet, "a period without reads closes")
    }

    @Test("a provider that never stops sending is closed after the linger limit")
    func lingerLimit() {
        var machine = Machine(maximumInFlight: 10, lingerLimit: 3)
        _ = machine.refused(.protocolError, identifier: 1)
        machine.errorResponseWritten()
        var closes: [Bool] = []
        for _ in 0..<3 {
            machine.readCompleted()
            closes.append(machine.lingerCheck())
        }
        #expect(closes == [false, false, true])
    }

    @Test("the journal gets the refusal the error response names, and only that one")
    func refusals() {
        var machine = Machine()
        machine.submitted()
        machine.refusals.note(Self.rejected(5, status: .invalidTokenSize), identifier: 5)
        machine.refusals.note(Self.rejected(5, status: .missingPayload), identifier: 5)
        machine.refusals.note(Self.rejected(6, status: .missingPayload), identifier: 6)
        // A store refusal of an earlier notification takes the place of the later ones.
        let response = BinaryErrorResponse(status: .invalidToken, identifier: 4)
        #expect(machine.refusals.take(identifier: response.identifier, statusByte: response.status.code) == nil)
        #expect(
            machine.refusals.take(identifier: 5, statusByte: BinaryStatus.invalidTokenSize.code) == nil,
            "forgotten once an answer went out")

        var named = Machine()
        named.refusals.note(Self.rejected(5, status: .invalidTokenSize), identifier: 5)
        named.refusals.note(Self.rejected(5, status: .missingPayload), identifier: 5)
        let refused = named.refusals.take(identifier: 5, statusByte: BinaryStatus.invalidTokenSize.code)
        #expect(refused?.push.id == "r5", "the first refusal of an identifier counts")
        #expect(refused?.push.statusByte == BinaryStatus.invalidTokenSize.code)
    }
}

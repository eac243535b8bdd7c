import NIOHTTP2
import Testing

@testable import APNsServer

@Suite("Provider connection state machine")
struct ProviderConnectionStateMachineTests {
    typealias Machine = ProviderConnectionStateMachine

    @Test("shutdown with streams open: GOAWAY naming the highest stream, close once the last finishes")
    func shutdownWaitsForStreams() {
        var machine = Machine()
        machine.streamCreated(1)
        machine.streamCreated(5)
        machine.streamCreated(3)
        let action1 = machine.shutdown()
        #expect(action1 == .goAway(lastStreamID: 5, reason: "Shutdown", closeNow: false))
        #expect(machine.state == .quiescing)
        let action2 = machine.streamClosed(1)
        #expect(action2 == .none)
        let action3 = machine.streamClosed(1)
        #expect(action3 == .none)
        let action4 = machine.streamClosed(1)
        #expect(action4 == .closeAfterFlush)
        #expect(machine.state == .closed)
    }

    @Test("shutdown of an idle connection closes at once, and only one GOAWAY is ever sent")
    func shutdownIdle() {
        var machine = Machine()
        let action5 = machine.shutdown()
        #expect(action5 == .goAway(lastStreamID: 0, reason: "Shutdown", closeNow: true))
        let action6 = machine.shutdown()
        #expect(action6 == .none)
        let action7 = machine.goAway(from: 7, reason: "TooManyRequests")
        #expect(action7 == .none)
    }

    @Test("a fault's GOAWAY names the stream before the faulted one, so it may be retried")
    func faultGoAway() {
        var machine = Machine()
        machine.streamCreated(1)
        machine.streamCreated(3)
        let action8 = machine.goAway(from: 3, reason: "Shutdown")
        #expect(action8 == .goAway(lastStreamID: 1, reason: "Shutdown", closeNow: false))
        // A later graceful shutdown sends nothing more.
        let action9 = machine.shutdown()
        #expect(action9 == .none)
        let action10 = machine.streamClosed(1)
        #expect(action10 == .none)
        let action11 = machine.streamClosed(1)
        #expect(action11 == .closeAfterFlush)
    }

    @Test("a fault on the first stream names stream 0: nothing was processed")
    func faultOnFirstStream() {
        var machine = Machine()
        machine.streamCreated(1)
        let action12 = machine.goAway(from: 1, reason: "Shutdown")
        #expect(action12 == .goAway(lastStreamID: 0, reason: "Shutdown", closeNow: false))
    }

    @Test("streams closing on an open connection never close it")
    func openConnection() {
        var machine = Machine()
        machine.streamCreated(1)
        let action13 = machine.streamClosed(1)
        #expect(action13 == .none)
        #expect(machine.state == .open)
        #expect(machine.highestStreamID == 1)
    }

    @Test("idle: GOAWAY IdleTimeout naming the highest stream, then close once streams finish (issue 13, item 4)")
    func idle() {
        var machine = Machine()
        machine.streamCreated(1)
        machine.streamCreated(3)
        let first = machine.streamClosed(1)
        #expect(first == .none)
        let idle = machine.idle()
        #expect(idle == .goAway(lastStreamID: 3, reason: "IdleTimeout", closeNow: false))
        let last = machine.streamClosed(1)
        #expect(last == .closeAfterFlush)
    }
}

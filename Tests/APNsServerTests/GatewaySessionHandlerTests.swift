import APNsCore
import APNsInspection
import APNsWire
import Logging
import NIOCore
import NIOEmbedded
import Testing

@testable import APNsServer

/// One legacy gateway connection on an `EmbeddedChannel`: decoded frames in, error-response bytes
/// out, the clock moved by hand. These cover refusals before the store, faults, idle and shutdown;
/// the end-to-end tests cover stored notifications over real TLS.
@Suite("Gateway session handler")
struct GatewaySessionHandlerTests {
    final class Session {
        let fixture: AdminRouterFixture
        let channel = EmbeddedChannel()

        init() throws {
            self.fixture = try AdminRouterFixture()
            let context = GatewayContext(
                inspection: self.fixture.inspection,
                auth: .none,
                environment: .development,
                clock: { 1_800_000_000_000 },
                doors: FrontDoors(readiness: ReadinessGate()),
                logger: Logger(label: "gateway-test"),
                intake: self.fixture.intake(now: 1_800_000_000_000)
            )
            try self.channel.pipeline.syncOperations.addHandler(GatewaySessionHandler(context: context, topic: nil))
            try self.channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 1)).wait()
        }

        func push(identifier: UInt32, token: [UInt8], payload: String = #"{"aps":{}}"#) throws {
            let request = BinaryPushRequest(command: 2, identifier: identifier, token: token, payload: Array(payload.utf8))
            try self.channel.writeInbound(BinaryGatewayFrame.push(request))
        }

        /// The error response written, as `[command, status, identifier...]`; nil when none.
        func errorResponse() throws -> [UInt8]? {
            try self.channel.readOutbound(as: ByteBuffer.self).map { Array($0.readableBytesView) }
        }

        func close() throws {
            _ = try? self.channel.finish()
            try self.fixture.close()
        }
    }

    @Test("a bad token size gets status 5 naming it, the journal records it, and later frames are discarded")
    func refusal() throws {
        let session = try Session()
        try session.push(identifier: 0x0102_0304, token: [1, 2, 3])
        #expect(try session.errorResponse() == [8, 5, 1, 2, 3, 4])
        try session.push(identifier: 9, token: [1])
        #expect(try session.errorResponse() == nil, "APNs answers only the first bad notification")
        let entry = try #require(session.fixture.inspection.journal.read { $0.newest(matching: JournalFilter()) })
        guard case .rejected(let rejected) = entry.push else {
            Issue.record("not a rejection")
            return
        }
        #expect(rejected.statusByte == 5 && rejected.source == .binary)
        try session.close()
    }

    @Test("after the error response the connection lingers, reading, and closes once the provider is quiet")
    func lingerThenClose() throws {
        let session = try Session()
        try session.channel.writeInbound(BinaryGatewayFrame.malformed(identifier: 77, detail: "unknown command 9"))
        #expect(try session.errorResponse() == [8, 128, 0, 0, 0, 77])
        // The provider goes on sending: what arrives is dropped, and the connection stays open
        // while reads keep coming (the read that carried the bad frame counts as one).
        for identifier: UInt32 in 1...3 {
            #expect(session.channel.isActive)
            try session.push(identifier: identifier, token: [UInt8](repeating: 1, count: 32))
            session.channel.embeddedEventLoop.advanceTime(by: GatewaySessionHandler.lingerQuiet)
        }
        #expect(try session.errorResponse() == nil)
        #expect(session.channel.isActive)
        session.channel.embeddedEventLoop.advanceTime(by: GatewaySessionHandler.lingerQuiet)
        #expect(!session.channel.isActive, "nothing arrived for one quiet period: closed")
        #expect(session.fixture.store.statistics.operations == 0, "nothing sent after the bad frame was stored")
        try session.close()
    }

    @Test("a fault rule's status byte comes back as the error response, marked in the journal")
    func fault() throws {
        let session = try Session()
        let rule = session.fixture.inspection.faults.add(
            match: .init(interface: .binary), action: .respond(reason: nil, status: nil, statusByte: 10), times: nil,
            probability: 1)
        try session.push(identifier: 5, token: [UInt8](repeating: 7, count: 32))
        #expect(try session.errorResponse() == [8, 10, 0, 0, 0, 5])
        let entry = try #require(session.fixture.inspection.journal.read { $0.newest(matching: JournalFilter()) })
        #expect(entry.fault == FaultMark(ruleID: rule.id, action: "respond"))
        try session.close()
    }

    @Test("idle with nothing in flight closes without a word; shutdown answers status 10 with the last identifier")
    func idleAndShutdown() throws {
        let idle = try Session()
        idle.channel.pipeline.fireUserInboundEventTriggered(IdleStateHandler.IdleStateEvent.read)
        #expect(try idle.errorResponse() == nil)
        #expect(!idle.channel.isActive)
        try idle.close()

        let shutdown = try Session()
        shutdown.channel.pipeline.fireUserInboundEventTriggered(ChannelShouldQuiesceEvent())
        #expect(try shutdown.errorResponse() == [8, 10, 0, 0, 0, 0])
        try shutdown.close()
    }
}

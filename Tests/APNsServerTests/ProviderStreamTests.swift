import APNsAuth
import APNsCore
import APNsInspection
import APNsWire
import Foundation
import Logging
import NIOCore
import NIOEmbedded
import Testing

@testable import APNsServer

/// One HTTP/2 stream of the provider API (``ProviderStreamsHandler`` and its ``ProviderStream``) on
/// an `EmbeddedChannel`: parts of the request on stream 1 in, the stream's answers out (to a
/// recording ``StreamAnswerSink`` in place of the connection's session), no socket. These cover the answers given before the store (validation, authentication, faults);
/// the end-to-end tests cover the stored path over real TLS.
@Suite("Provider stream")
struct ProviderStreamTests {
    static let token = String(repeating: "ab", count: 32)

    /// A stream channel with the handler, in `mode`; `unlocked` counts lifted stream limits.
    final class Stream {
        let fixture: AdminRouterFixture
        let channel = EmbeddedChannel()
        var unlocked = 0
        /// Where the streams send their answers, in place of the connection.
        let sink = AnswerRecorder()

        init(auth: AuthMode = .none) throws {
            self.fixture = try AdminRouterFixture()
            let keys = try ProviderKeyStore(directory: self.fixture.directory.appending("keys"))
            let context = ProviderContext(
                auth: auth,
                authRules: .init(),
                verifier: ProviderTokenVerifier(keys: keys),
                inspection: self.fixture.inspection,
                environment: .development,
                shutdownGrace: .seconds(1),
                clock: { 1_800_000_000_000 },
                realClock: { 1_800_000_000_000 },
                doors: FrontDoors(readiness: ReadinessGate()),
                logger: Logger(label: "stream-test"),
                intake: self.fixture.intake(now: 1_800_000_000_000)
            )
            let machine = auth == .strict ? ProviderAuthStateMachine(rules: .init(), certificate: nil) : nil
            let state = ProviderConnectionState(auth: machine, clock: { 1_764_000_000_000 })
            state.unlockStreams = { [unowned self] in self.unlocked += 1 }
            let streams = ProviderStreamsHandler(
                context: context, connection: state, sink: self.sink, eventLoop: self.channel.embeddedEventLoop
            )
            try self.channel.pipeline.syncOperations.addHandler(streams)
        }

        /// Sends a request's HEADERS (and its body in `chunks` DATA frames, the last ending the stream).
        func send(_ headers: [(String, String)], body chunks: [String] = []) throws {
            let base: [(String, String)] = [
                (":method", "POST"), (":scheme", "https"), (":path", "/3/device/\(ProviderStreamTests.token)"),
            ]
            let all = base.filter { name, _ in !headers.contains { $0.0 == name } } + headers
            try self.channel.writeInbound(
                ProviderRequestPart(
                    stream: 1,
                    .headers(HTTP2PushRequestDecoder.request(from: all), listSize: all.listSize, endStream: chunks.isEmpty)))
            for (index, chunk) in chunks.enumerated() {
                var buffer = self.channel.allocator.buffer(capacity: chunk.utf8.count)
                buffer.writeString(chunk)
                try self.channel.writeInbound(ProviderRequestPart(stream: 1, .body(buffer, endStream: index == chunks.count - 1)))
            }
        }

        /// The answer written so far: its `:status`, headers and JSON body; nil when nothing was written.
        func answer() throws -> (status: String, headers: ResponseFields, body: [String: Any])? {
            let fields: ResponseFields
            var body: [String: Any] = [:]
            switch self.sink.next() {
            case .accepted(let apnsID, let uniqueID, let warnings)?:
                fields = HTTP2PushResponseEncoder.success(apnsID: apnsID, uniqueID: uniqueID, warnings: warnings)
            case .response(let head, let buffer)?:
                fields = head
                if let buffer {
                    body = (try JSONSerialization.jsonObject(with: Data(buffer.readableBytesView))) as? [String: Any] ?? [:]
                }
            case .reset?, nil:
                return nil
            }
            return (fields.first(name: ":status") ?? "", fields, body)
        }

        func close() throws {
            _ = try? self.channel.finish()
            try self.fixture.close()
        }
    }

    @Test("a request is answered only once its last DATA frame arrives, with Apple's reason and the journal's entry")
    func validationAcrossFrames() throws {
        let stream = try Stream()
        try stream.send(
            [("apns-topic", "com.example.app"), ("apns-push-type", "bogus")], body: [#"{"aps":"#, #"{"alert":"hi"}}"#])
        let answer = try #require(try stream.answer())
        #expect(answer.status == "400")
        #expect(answer.body["reason"] as? String == "InvalidPushType")
        #expect(answer.headers.first(name: "apns-id") != nil)
        let entry = try #require(stream.fixture.inspection.journal.read { $0.newest(matching: JournalFilter()) })
        #expect(entry.status == .rejected)
        guard case .rejected(let rejected) = entry.push else {
            Issue.record("not a rejection")
            return
        }
        #expect(rejected.reason == "InvalidPushType" && rejected.httpStatus == 400)
        #expect(String(decoding: rejected.body, as: UTF8.self) == #"{"aps":{"alert":"hi"}}"#)
        try stream.close()
    }

    @Test("the provider's canonical apns-id comes back on an error; a bad path is 404 BadPath")
    func apnsIDAndPath() throws {
        let stream = try Stream()
        let id = "1C2F3C8A-6D27-4C1B-9A1E-3D4A5B6C7D8E"
        try stream.send([(":path", "/3/phone/x"), ("apns-id", id)], body: ["{}"])
        let answer = try #require(try stream.answer())
        #expect(answer.status == "404" && answer.body["reason"] as? String == "BadPath")
        #expect(answer.headers.first(name: "apns-id")?.uppercased() == id)
        try stream.close()
    }

    @Test("strict mode: no authorization is 403 MissingProviderToken and lifts no stream limit")
    func strictWithoutToken() throws {
        let stream = try Stream(auth: .strict)
        try stream.send([("apns-topic", "com.example.app")], body: [#"{"aps":{}}"#])
        let answer = try #require(try stream.answer())
        #expect(answer.status == "403" && answer.body["reason"] as? String == "MissingProviderToken")
        #expect(stream.unlocked == 0)
        try stream.close()
    }

    @Test("a fault rule answers in place of the emulator, and the journal marks it")
    func injectedFault() throws {
        let stream = try Stream()
        let rule = stream.fixture.inspection.faults.add(
            match: .init(topic: "com.example.app"), action: .respond(reason: "Unregistered", status: nil, statusByte: nil),
            times: 1, probability: 1)
        try stream.send([("apns-topic", "com.example.app")], body: [#"{"aps":{}}"#])
        let answer = try #require(try stream.answer())
        #expect(answer.status == "410" && answer.body["reason"] as? String == "Unregistered")
        #expect(answer.body["timestamp"] as? Int == 1_800_000_000_000, "410 carries when the token stopped being valid")
        let entry = try #require(stream.fixture.inspection.journal.read { $0.newest(matching: JournalFilter()) })
        #expect(entry.fault == FaultMark(ruleID: rule.id, action: "respond"))
        #expect(stream.fixture.inspection.faults.all.isEmpty, "times 1: the rule is gone")
        try stream.close()
    }

    @Test("every 410 carries a timestamp: ExpiredToken as well as Unregistered (issue 13, item 9)")
    func expiredTokenTimestamp() throws {
        let stream = try Stream()
        stream.fixture.inspection.faults.add(
            match: .init(), action: .respond(reason: "ExpiredToken", status: nil, statusByte: nil), times: 1, probability: 1)
        try stream.send([("apns-topic", "com.example.app")], body: [#"{"aps":{}}"#])
        let answer = try #require(try stream.answer())
        #expect(answer.status == "410" && answer.body["reason"] as? String == "ExpiredToken")
        #expect(answer.body["timestamp"] as? Int == 1_800_000_000_000)
        try stream.close()
    }

    @Test("a body over every push type's limit is answered 413 once it passes it, and the stream reset (issue 13, item 3)")
    func oversizedBody() throws {
        let stream = try Stream()
        let chunk = String(repeating: "x", count: 4000)
        // No content-length: the second DATA frame takes the body past 5120 bytes.
        let headers: [(String, String)] = [
            (":method", "POST"), (":path", "/3/device/\(Self.token)"), ("apns-topic", "com.example.app"),
        ]
        try stream.channel.writeInbound(
            ProviderRequestPart(
                stream: 1, .headers(HTTP2PushRequestDecoder.request(from: headers), listSize: headers.listSize, endStream: false))
        )
        for n in 0..<2 {
            var buffer = stream.channel.allocator.buffer(capacity: chunk.utf8.count)
            buffer.writeString(chunk)
            try stream.channel.writeInbound(ProviderRequestPart(stream: 1, .body(buffer, endStream: false)))
            if n == 0 { #expect(stream.sink.sent.isEmpty, "4000 bytes may still be a VoIP push") }
        }
        let answer = try #require(try stream.answer())
        #expect(answer.status == "413" && answer.body["reason"] as? String == "PayloadTooLarge")
        guard case .reset(let code)? = stream.sink.next() else {
            Issue.record("no RST_STREAM after the answer")
            return
        }
        #expect(code == 0, "NO_ERROR")
        // More DATA is dropped, not buffered, and not answered again.
        var more = stream.channel.allocator.buffer(capacity: 4)
        more.writeString("xxxx")
        try stream.channel.writeInbound(ProviderRequestPart(stream: 1, .body(more, endStream: true)))
        #expect(stream.sink.sent.isEmpty)
        try stream.close()
    }

    @Test("a content-length over the limit is answered before any DATA arrives")
    func oversizedContentLength() throws {
        let stream = try Stream()
        let headers: [(String, String)] = [
            (":method", "POST"), (":path", "/3/device/\(Self.token)"), ("content-length", "1000000000000"),
        ]
        try stream.channel.writeInbound(
            ProviderRequestPart(
                stream: 1, .headers(HTTP2PushRequestDecoder.request(from: headers), listSize: headers.listSize, endStream: false))
        )
        #expect(try stream.answer()?.status == "413")
        try stream.close()
    }

    @Test("a trailer after the body is ignored; one answer per stream")
    func oneAnswer() throws {
        let stream = try Stream()
        try stream.send([("apns-topic", "com.example.app"), ("apns-priority", "7")], body: [#"{"aps":{}}"#])
        #expect(try stream.answer()?.body["reason"] as? String == "BadPriority")
        let trailer: [(String, String)] = [("x-trailer", "1")]
        try stream.channel.writeInbound(
            ProviderRequestPart(
                stream: 1, .headers(HTTP2PushRequestDecoder.request(from: trailer), listSize: trailer.listSize, endStream: true)))
        #expect(try stream.answer() == nil)
        try stream.close()
    }
}

extension [(String, String)] {
    /// RFC 9113 section 6.5.2: names and values plus 32 bytes a field.
    fileprivate var listSize: Int { self.reduce(0) { $0 + $1.0.utf8.count + $1.1.utf8.count + 32 } }
}

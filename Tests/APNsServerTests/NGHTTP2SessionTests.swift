import APNsCore
import NIOCore
import NIOEmbedded
import NIOHPACK
import NIOHTTP2
import Testing

@testable import APNsServer

/// The provider API's HTTP/2 session on libnghttp2 on its own (issue 71: NGHTTP2Session was tested
/// only through whole connections): swift-nio-http2's client on an `EmbeddedChannel` on the other
/// side, bytes carried between the two by hand, no socket. What the delegate hears of a request,
/// and what the client reads of each answer, reset and GOAWAY.
@Suite("HTTP/2 session (libnghttp2)")
struct NGHTTP2SessionTests {
    /// What the session tells its connection, in order.
    final class Recorder: NGHTTP2SessionDelegate {
        var events: [String] = []
        var requests: [Int32: PushRequest] = [:]
        var bodies: [Int32: [UInt8]] = [:]

        func streamOpened(_ id: Int32) { self.events.append("opened \(id)") }
        func received(_ part: ProviderRequestPart) {
            switch part.payload {
            case .headers(let request, _, let endStream):
                self.requests[part.stream] = request
                self.events.append("headers \(part.stream)\(endStream ? " end" : "")")
            case .body(let bytes, let endStream):
                self.bodies[part.stream, default: []] += Array(bytes.readableBytesView)
                if endStream { self.events.append("end \(part.stream)") }
            }
        }
        func receivedBody(_ bytes: UnsafeRawBufferPointer, on id: Int32) { self.bodies[id, default: []] += Array(bytes) }
        func streamClosed(_ id: Int32) { self.events.append("closed \(id)") }
        func answerSent(_ id: Int32) { self.events.append("answered \(id)") }
    }

    /// A session and a client joined by hand.
    final class Pair {
        let session = NGHTTP2Session(allocator: ByteBufferAllocator())
        let recorder = Recorder()
        let client = EmbeddedChannel(handler: NIOHTTP2Handler(mode: .client))

        init() throws {
            self.session.delegate = self.recorder
            self.session.submitSettings(HTTP2ProviderListener.settings)
            try self.client.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 443)).wait()
            try self.exchange()
        }

        /// Carries bytes both ways until neither side has any left to send.
        func exchange() throws {
            for _ in 0..<16 {
                var moved = false
                while let bytes = try self.client.readOutbound(as: ByteBuffer.self) {
                    moved = true
                    #expect(self.session.receive(bytes) == .read)
                }
                var out: ByteBuffer?
                #expect(self.session.send(into: &out))
                if let out, out.readableBytes > 0 {
                    moved = true
                    try self.client.writeInbound(out)
                }
                if !moved { return }
            }
            Issue.record("the two sides kept sending")
        }

        /// The frames the client has read since the last call.
        func frames() throws -> [HTTP2Frame.FramePayload] {
            var frames: [HTTP2Frame.FramePayload] = []
            while let frame = try self.client.readInbound(as: HTTP2Frame.self) { frames.append(frame.payload) }
            return frames
        }

        /// A push on `stream`: its headers, then its body with END_STREAM.
        func push(stream: Int, body: String) throws {
            let headers = HPACKHeaders([
                (":method", "POST"), (":scheme", "https"), (":authority", "localhost"),
                (":path", "/3/device/\(String(repeating: "ab", count: 32))"), ("apns-topic", "com.example.app"),
            ])
            let id = HTTP2StreamID(stream)
            self.client.write(HTTP2Frame(streamID: id, payload: .headers(.init(headers: headers))), promise: nil)
            let data = ByteBuffer(string: body)
            self.client.writeAndFlush(
                HTTP2Frame(streamID: id, payload: .data(.init(data: .byteBuffer(data), endStream: true))), promise: nil)
            try self.exchange()
        }
    }

    @Test("the client meets the provider API's settings; a request's headers and body reach the delegate in order")
    func request() throws {
        let pair = try Pair()
        let settings = try pair.frames().compactMap { payload -> HTTP2Settings? in
            if case .settings(.settings(let settings)) = payload { return settings }
            return nil
        }
        #expect(settings.first?.contains(HTTP2Setting(parameter: .maxConcurrentStreams, value: 1000)) == true)
        try pair.push(stream: 1, body: #"{"aps":{"alert":"hi"}}"#)
        #expect(pair.recorder.events == ["opened 1", "headers 1", "end 1"])
        #expect(pair.recorder.requests[1]?.topic == "com.example.app")
        #expect(pair.recorder.requests[1]?.path == "/3/device/\(String(repeating: "ab", count: 32))")
        #expect(pair.recorder.bodies[1] == Array(#"{"aps":{"alert":"hi"}}"#.utf8))
    }

    @Test("an accepted push is answered 200 with its apns-id and apns-unique-id, and the stream closes")
    func accepted() throws {
        let pair = try Pair()
        _ = try pair.frames()
        try pair.push(stream: 1, body: "{}")
        #expect(
            pair.session.submitAccepted(stream: 1, apnsID: "11111111-2222-4333-8444-555555555555", uniqueID: "u-1", warnings: []))
        try pair.exchange()
        let headers = try pair.frames().compactMap { payload -> HPACKHeaders? in
            if case .headers(let headers) = payload { return headers.headers }
            return nil
        }
        #expect(headers.count == 1)
        #expect(headers.first?.first(name: ":status") == "200")
        #expect(headers.first?.first(name: "apns-id") == "11111111-2222-4333-8444-555555555555")
        #expect(headers.first?.first(name: "apns-unique-id") == "u-1")
        #expect(pair.recorder.events.suffix(2) == ["answered 1", "closed 1"])
    }

    @Test("a reset reaches the client as RST_STREAM with its code; a GOAWAY with its last stream, code and debug data")
    func resetAndGoAway() throws {
        let pair = try Pair()
        _ = try pair.frames()
        try pair.push(stream: 1, body: "{}")
        try pair.push(stream: 3, body: "{}")
        pair.session.submitReset(stream: 1, code: 8)
        pair.session.submitGoAway(lastStream: 3, code: 0, debugData: ByteBuffer(string: "shutting down"))
        try pair.exchange()
        var reset: (HTTP2StreamID, HTTP2ErrorCode)?
        var goAway: (HTTP2StreamID, HTTP2ErrorCode, String?)?
        for payload in try pair.frames() {
            if case .rstStream(let code) = payload { reset = (1, code) }
            if case .goAway(let last, let code, let data) = payload {
                goAway = (last, code, data.map { String(buffer: $0) })
            }
        }
        #expect(reset?.1 == .cancel)
        #expect(goAway?.0 == 3 && goAway?.1 == .noError && goAway?.2 == "shutting down")
        #expect(pair.recorder.events.contains("closed 1"))
    }

    @Test("bytes that are not HTTP/2's preface are badPreface, so the connection can say where it belongs")
    func badPreface() {
        let session = NGHTTP2Session(allocator: ByteBufferAllocator())
        #expect(session.receive(ByteBuffer(string: "GET / HTTP/1.1\r\nHost: localhost\r\n\r\n")) == .badPreface)
    }
}

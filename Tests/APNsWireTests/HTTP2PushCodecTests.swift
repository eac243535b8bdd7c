import APNsCore
import APNsWire
import NIOCore
import Testing

@Suite("HTTP/2 request and response translation")
struct HTTP2PushCodecTests {
    @Test("headers become request fields; pseudo-headers and unknown headers are read or skipped")
    func decodesHeaders() {
        let headers: [(String, String)] = [
            (":method", "POST"), (":scheme", "https"), (":path", "/3/device/abc"), (":authority", "x"),
            ("authorization", "bearer t"), ("apns-push-type", "voip"), ("apns-id", "id"), ("apns-expiration", "5"),
            ("apns-priority", "5"), ("apns-topic", "t"), ("apns-collapse-id", "c"), ("user-agent", "test"),
        ]
        let request = HTTP2PushRequestDecoder.request(from: headers)
        #expect(request.method == "POST")
        #expect(request.path == "/3/device/abc")
        #expect(request.authorization == "bearer t")
        #expect(request.pushType == "voip")
        #expect(request.apnsID == "id")
        #expect(request.expiration == "5")
        #expect(request.priority == "5")
        #expect(request.topic == "t")
        #expect(request.collapseID == "c")
        #expect(!request.hasDuplicateHeaders)
        #expect(request.body.isEmpty && request.bodyLength == 0)
    }

    /// Apple's hosts (Apple, "Sending notification requests to APNs"; "Sending notification
    /// requests to APNs using the binary interface" for the gateway's).
    @Test("an :authority naming Apple's host says the environment; any other host says none")
    func authority() {
        let cases: [(String, APNsEnvironment?)] = [
            ("api.push.apple.com", .production), ("api.push.apple.com:443", .production), ("API.PUSH.APPLE.COM.", .production),
            ("api.sandbox.push.apple.com:2197", .development), ("api.development.push.apple.com", .development),
            ("localhost:2197", nil), ("127.0.0.1", nil), ("push.apple.com", nil), ("evil-api.push.apple.com", nil), ("x", nil),
        ]
        for (authority, environment) in cases {
            let request = HTTP2PushRequestDecoder.request(from: [(":method", "POST"), (":authority", authority)])
            #expect(request.hostEnvironment == environment, "\(authority)")
        }
    }

    @Test(
        "a repeated APNs header is a duplicate; a repeated other header is not",
        arguments: [
            "authorization", "apns-push-type", "apns-id", "apns-expiration", "apns-priority", "apns-topic", "apns-collapse-id",
        ]
    )
    func duplicates(_ name: String) {
        let repeated: [(String, String)] = [(":method", "POST"), (name, "a"), ("accept", "x"), (name, "a")]
        #expect(HTTP2PushRequestDecoder.request(from: repeated).hasDuplicateHeaders)
        let other: [(String, String)] = [(":method", "POST"), (name, "a"), ("accept", "x"), ("accept", "y")]
        #expect(!HTTP2PushRequestDecoder.request(from: other).hasDuplicateHeaders)
    }

    @Test("the body is gathered across DATA frames, buffered up to the cap and counted beyond it")
    func bodyAccumulates() {
        var request = PushRequest()
        let allocator = ByteBufferAllocator()
        for _ in 0..<10 {
            request.appendBody(allocator.buffer(bytes: [UInt8](repeating: 0x41, count: 1000)))
        }
        #expect(request.bodyLength == 10_000)
        #expect(request.body.count == PushValidator.maximumBufferedBody)
        var small = PushRequest()
        small.appendBody(allocator.buffer(string: "{\"a\":"))
        small.appendBody(allocator.buffer(string: "1}"))
        #expect(small.body == Array("{\"a\":1}".utf8))
        #expect(small.bodyLength == 7)
    }

    @Test("success carries apns-id and, in development, apns-unique-id")
    func success() {
        let headers = HTTP2PushResponseEncoder.success(apnsID: "a", uniqueID: "u")
        #expect(headers[":status"] == ["200"])
        #expect(headers["apns-id"] == ["a"])
        #expect(headers["apns-unique-id"] == ["u"])
        #expect(HTTP2PushResponseEncoder.success(apnsID: "a", uniqueID: nil)["apns-unique-id"].isEmpty)
    }

    @Test("failure carries status, apns-id, JSON content type and the reason body; 410 adds the timestamp")
    func failure() {
        let allocator = ByteBufferAllocator()
        let rejection = Rejection(reason: .badPriority, apnsID: "id", detail: "why")
        let (headers, body) = HTTP2PushResponseEncoder.failure(rejection, allocator: allocator)
        #expect(headers[":status"] == ["400"])
        #expect(headers["apns-id"] == ["id"])
        #expect(headers["content-type"] == ["application/json"])
        #expect(headers[HTTP2PushResponseEncoder.detailHeader] == ["why"])
        #expect(String(buffer: body) == #"{"reason":"BadPriority"}"#)
        #expect(headers["content-length"] == [String(body.readableBytes)])
        let gone = HTTP2PushResponseEncoder.failure(
            Rejection(reason: .unregistered, apnsID: "id"), timestamp: 1_700_000_000_123, allocator: allocator
        )
        #expect(gone.headers[":status"] == ["410"])
        #expect(String(buffer: gone.body) == #"{"reason":"Unregistered","timestamp":1700000000123}"#)
        // Without words of its own, a refusal says what its reason means.
        #expect(gone.headers[HTTP2PushResponseEncoder.detailHeader] == [Reason.unregistered.explanation])
        #expect(!Reason.unregistered.explanation.isEmpty)
    }
}

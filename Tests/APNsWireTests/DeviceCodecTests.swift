import APNsCore
import APNsWire
import NIOCore
import NIOEmbedded
import Testing

@Suite("Device protocol codec")
struct DeviceCodecTests {
    static let token = DeviceToken(bytes: Array(0..<32))!
    static let notification = Notification(
        apnsID: "123e4567-e89b-12d3-a456-426614174000", uniqueID: "00000000-0000-4000-8000-000000000001",
        token: token, topic: "com.example.app", pushType: .voip, priority: .conservePower, expiration: 1_900_000_000,
        collapseID: "c1", payload: Array(#"{"aps":{"alert":"é"}}"#.utf8), receivedAt: 1_800_000_000_123, source: .binary
    )

    static let clientMessages: [DeviceClientMessage] = [
        .hello(version: 1, deviceID: "iphone-1"), .hello(version: 3, deviceID: "iphone-1", credential: "admin-token"),
        .register(topic: "com.example.app"), .register(topic: "com.example.app", environment: .production),
        .register(topic: "com.example.app", environment: .development),
        .resume(tokens: [token, DeviceToken(bytes: [UInt8](repeating: 9, count: 100))!]), .resume(tokens: []),
        .unregister(topic: "com.example.app"), .ack(uniqueID: "00000000-0000-4000-8000-000000000001"), .ping(.max),
        .authorize(topic: "com.example.app", options: 7, allow: true),
        .configure(topic: "t", document: Array(#"{"language":"fr"}"#.utf8)),
        .respond(uniqueID: "u", action: "REPLY", text: "On my way", context: 2),
        .respond(uniqueID: "u", action: "default", text: nil, context: 0),
        .schedule(topic: "t", document: Array(#"{"identifier":"a"}"#.utf8)), .listPending(topic: "t"),
        .cancel(topic: "t", identifier: "a"), .cancel(topic: "t", identifier: nil),
    ]

    static let serverMessages: [DeviceServerMessage] = [
        .welcome(version: 1), .registered(topic: "com.example.app", token: token),
        .resumed([ResumeResult(token: token, status: .resumed), ResumeResult(token: token, status: .unregistered)]),
        .unregistered(topic: "t", token: token, timestamp: 1_800_000_000_000), .notification(notification),
        .notification(
            {
                var n = notification
                n.topic = nil
                n.collapseID = nil
                n.expiration = nil
                return n
            }()),
        .pong(42), .error(code: .invalidArgument, message: "no"),
        .authorization(topic: "t", status: 2, options: 5, granted: false, prompted: true),
        .app(topic: "t", document: Array("{}".utf8)),
        .presented(uniqueID: "u", document: Array(#"{"shown":true}"#.utf8)), .response(uniqueID: "u", document: Array("{}".utf8)),
        .refused(subject: "t", status: 404, message: "no pending request a"),
        .scheduled(topic: "t", document: Array(#"{"evicted":[]}"#.utf8)),
        .pending(topic: "t", document: Array(#"{"total":0,"items":[]}"#.utf8)), .cancelled(topic: "t", removed: 64),
    ]

    func bytes(_ frame: DeviceFrame) throws -> [UInt8] {
        var out = ByteBuffer()
        try DeviceFrameEncoder().encode(data: frame, out: &out)
        return Array(out.readableBytesView)
    }

    /// Feeds `bytes` one at a time through the frame decoder and returns the frames it produced.
    func feedByteByByte(_ bytes: [UInt8]) throws -> [DeviceFrame] {
        let channel = EmbeddedChannel(handler: ByteToMessageHandler(DeviceFrameDecoder()))
        var frames: [DeviceFrame] = []
        for byte in bytes {
            try channel.writeInbound(ByteBuffer(bytes: [byte]))
            while let frame = try channel.readInbound(as: DeviceFrame.self) { frames.append(frame) }
        }
        _ = try channel.finish()
        return frames
    }

    @Test("every device message survives encoding and byte-by-byte decoding", arguments: clientMessages)
    func clientRoundTrip(_ message: DeviceClientMessage) throws {
        let frames = try self.feedByteByByte(try self.bytes(message.frame()))
        #expect(frames.count == 1)
        #expect(try DeviceClientMessage(frame: try #require(frames.first)) == message)
    }

    @Test("every server message survives encoding and byte-by-byte decoding", arguments: serverMessages)
    func serverRoundTrip(_ message: DeviceServerMessage) throws {
        let frames = try self.feedByteByByte(try self.bytes(message.frame()))
        #expect(frames.count == 1)
        #expect(try DeviceServerMessage(frame: try #require(frames.first)) == message)
    }

    @Test("a stream of frames split at every offset decodes to the same frames")
    func splitsAtEveryOffset() throws {
        let stream = try Self.serverMessages.flatMap { try self.bytes($0.frame()) }
        for cut in 0...stream.count {
            let channel = EmbeddedChannel(handler: ByteToMessageHandler(DeviceFrameDecoder()))
            try channel.writeInbound(ByteBuffer(bytes: stream[..<cut]))
            try channel.writeInbound(ByteBuffer(bytes: stream[cut...]))
            var decoded: [DeviceServerMessage] = []
            while let frame = try channel.readInbound(as: DeviceFrame.self) {
                decoded.append(try DeviceServerMessage(frame: frame))
            }
            #expect(decoded == Self.serverMessages, "cut at \(cut)")
            _ = try channel.finish()
        }
    }

    @Test("the wire layout is as documented")
    func layout() throws {
        #expect(
            try self.bytes(DeviceClientMessage.hello(version: 1, deviceID: "ab").frame()) == [
                0, 0, 0, 6, 0x01, 1, 0, 2, 0x61, 0x62,
            ])
        // The admin token, when the device brings one, follows the device id as a string.
        #expect(
            try self.bytes(DeviceClientMessage.hello(version: 3, deviceID: "ab", credential: "t").frame()) == [
                0, 0, 0, 9, 0x01, 3, 0, 2, 0x61, 0x62, 0, 1, 0x74,
            ])
        #expect(try self.bytes(DeviceClientMessage.ping(258).frame()) == [0, 0, 0, 9, 0x06, 0, 0, 0, 0, 0, 0, 1, 2])
        #expect(
            try self.bytes(DeviceServerMessage.error(code: .frameTooLarge, message: "x").frame()) == [
                0, 0, 0, 5, 0x8F, 5, 0, 1, 0x78,
            ])
        // Version 2's local notifications: schedule, pending, cancel (an absent identifier: flag 0).
        #expect(
            try self.bytes(DeviceClientMessage.schedule(topic: "t", document: [0x7B, 0x7D]).frame()) == [
                0, 0, 0, 10, 0x0A, 0, 1, 0x74, 0, 0, 0, 2, 0x7B, 0x7D,
            ])
        #expect(try self.bytes(DeviceClientMessage.listPending(topic: "t").frame()) == [0, 0, 0, 4, 0x0B, 0, 1, 0x74])
        #expect(
            try self.bytes(DeviceClientMessage.cancel(topic: "t", identifier: nil).frame()) == [0, 0, 0, 5, 0x0C, 0, 1, 0x74, 0])
        #expect(
            try self.bytes(DeviceServerMessage.cancelled(topic: "t", removed: 3).frame()) == [0, 0, 0, 6, 0x8E, 0, 1, 0x74, 0, 3])
        // Version 3's Live Activities (docs/device-protocol.md).
        #expect(
            try self.bytes(DeviceClientMessage.declareActivities(topic: "t", document: [0x7B, 0x7D]).frame()) == [
                0, 0, 0, 10, 0x0D, 0, 1, 0x74, 0, 0, 0, 2, 0x7B, 0x7D,
            ])
        #expect(
            try self.bytes(DeviceClientMessage.endActivity(topic: "t", activityID: "a", document: []).frame()) == [
                0, 0, 0, 11, 0x0F, 0, 1, 0x74, 0, 1, 0x61, 0, 0, 0, 0,
            ])
        #expect(try self.bytes(DeviceClientMessage.listActivities(topic: "t").frame()) == [0, 0, 0, 4, 0x10, 0, 1, 0x74])
        let token = try #require(DeviceToken(bytes: Array(repeating: 0xAB, count: 32)))
        let pushToStart = try self.bytes(DeviceServerMessage.activityToken(topic: "t", activityID: nil, token: token).frame())
        #expect(pushToStart == [0, 0, 0, 39, 0x91, 0, 1, 0x74, 0, 0, 32] + Array(repeating: 0xAB, count: 32))
        let frame = DeviceServerMessage.activityToken(topic: "t", activityID: "a", token: token).frame()
        #expect(try DeviceServerMessage(frame: frame) == .activityToken(topic: "t", activityID: "a", token: token))
        // Version 2's power state: a JSON document each way.
        #expect(
            try self.bytes(DeviceClientMessage.power(document: [0x7B, 0x7D]).frame()) == [
                0, 0, 0, 7, 0x11, 0, 0, 0, 2, 0x7B, 0x7D,
            ])
        #expect(
            try self.bytes(DeviceServerMessage.power(document: [0x7B, 0x7D]).frame()) == [
                0, 0, 0, 7, 0x93, 0, 0, 0, 2, 0x7B, 0x7D,
            ])
    }

    func clientError(_ type: UInt8, _ body: [UInt8]) -> DeviceErrorCode? {
        do {
            _ = try DeviceClientMessage(frame: DeviceFrame(type: type, body: ByteBuffer(bytes: body)))
            return nil
        } catch let error as DeviceProtocolError {
            return error.code
        } catch {
            return .internalError
        }
    }

    @Test("malformed bodies are refused with the documented codes")
    func malformed() {
        #expect(self.clientError(0x01, [1, 0, 5, 0x61]) == .malformedFrame)  // string runs past the end
        #expect(self.clientError(0x01, [1, 0, 1, 0x61, 0xFF]) == .malformedFrame)  // a byte left over
        #expect(self.clientError(0x01, []) == .malformedFrame)
        #expect(self.clientError(0x02, [0, 2, 0xC3, 0x28]) == .malformedFrame)  // invalid UTF-8
        #expect(self.clientError(0x03, [0, 1, 0, 3, 1, 2, 3]) == .invalidArgument)  // a 3-byte token
        #expect(self.clientError(0x03, [0, 2, 0, 32] + [UInt8](repeating: 1, count: 32)) == .malformedFrame)  // count too high
        #expect(self.clientError(0x06, [1, 2, 3]) == .malformedFrame)
        #expect(self.clientError(0x7E, []) == .unknownMessage)
        #expect(self.clientError(0x85, []) == .unknownMessage)  // a server message sent by a device
    }

    @Test("a frame length of 0 or over the limit is refused before any body arrives")
    func lengths() throws {
        for header: [UInt8] in [[0, 0, 0, 0], [0, 1, 0, 1], [0xFF, 0xFF, 0xFF, 0xFF]] {
            let channel = EmbeddedChannel(handler: ByteToMessageHandler(DeviceFrameDecoder()))
            #expect(throws: DeviceProtocolError.self) { try channel.writeInbound(ByteBuffer(bytes: header)) }
            _ = try? channel.finish()
        }
        // The largest legal frame is accepted.
        var buffer = ByteBuffer(bytes: [0, 1, 0, 0, 0x05])
        buffer.writeBytes([UInt8](repeating: 0x41, count: 65_535))
        #expect(try DeviceFrameDecoder.next(from: &buffer)?.body.readableBytes == 65_535)
    }

    @Test("error codes and their bytes are one table")
    func errorCodes() {
        #expect(DeviceErrorCode.all.map(\.rawValue) == [1, 2, 3, 4, 5, 6, 7, 8])
        #expect(DeviceErrorCode(rawValue: 8) == .unauthorized)
        #expect(DeviceErrorCode(rawValue: 4) == .unsupportedVersion)
        #expect(DeviceErrorCode(rawValue: 200).name == "unknown")
    }
}

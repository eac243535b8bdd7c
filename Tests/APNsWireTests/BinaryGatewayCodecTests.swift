import APNsCore
import APNsWire
import NIOCore
import NIOEmbedded
import Testing

@Suite("Legacy binary gateway codec")
struct BinaryGatewayCodecTests {
    static let token: [UInt8] = Array(0..<32)
    static let payload: [UInt8] = Array(#"{"aps":{"alert":"hi"}}"#.utf8)

    static func bytes(_ write: (inout ByteBuffer) -> Void) -> [UInt8] {
        var out = ByteBuffer()
        write(&out)
        return Array(out.readableBytesView)
    }

    /// Feeds `bytes` through the decoder in pieces of `chunk` bytes and returns what it produced.
    static func decode(_ bytes: [UInt8], chunk: Int = 1) throws -> [BinaryGatewayFrame] {
        let channel = EmbeddedChannel(handler: ByteToMessageHandler(BinaryGatewayDecoder()))
        var frames: [BinaryGatewayFrame] = []
        var index = 0
        while index < bytes.count {
            let end = min(index + chunk, bytes.count)
            try channel.writeInbound(ByteBuffer(bytes: bytes[index..<end]))
            while let frame = try channel.readInbound(as: BinaryGatewayFrame.self) { frames.append(frame) }
            index = end
        }
        _ = try channel.finish(acceptAlreadyClosed: true)
        return frames
    }

    static let everyCommand: [(bytes: [UInt8], request: BinaryPushRequest)] = [
        (
            bytes { BinaryPushEncoder.writeSimple(token: token, payload: payload, into: &$0) },
            BinaryPushRequest(command: 0, token: token, payload: payload)
        ),
        (
            bytes {
                BinaryPushEncoder.writeEnhanced(identifier: 7, expiry: 1_900_000_000, token: token, payload: payload, into: &$0)
            },
            BinaryPushRequest(command: 1, identifier: 7, expiry: 1_900_000_000, token: token, payload: payload)
        ),
        (
            bytes {
                BinaryPushEncoder.writeFrame(
                    BinaryPushRequest(command: 2, identifier: .max, expiry: 0, token: token, payload: payload, priority: 5),
                    into: &$0
                )
            },
            BinaryPushRequest(command: 2, identifier: .max, expiry: 0, token: token, payload: payload, priority: 5)
        ),
    ]

    @Test("commands 0, 1 and 2 decode with every field, fed one byte at a time")
    func everyCommandDecodes() throws {
        for (bytes, request) in Self.everyCommand {
            #expect(try Self.decode(bytes) == [.push(request)])
        }
    }

    @Test("a stream of all three commands decodes the same however it is split")
    func splitAtEveryOffset() throws {
        let stream = Self.everyCommand.flatMap(\.bytes)
        let expected = Self.everyCommand.map { BinaryGatewayFrame.push($0.request) }
        for split in 1..<stream.count {
            let channel = EmbeddedChannel(handler: ByteToMessageHandler(BinaryGatewayDecoder()))
            try channel.writeInbound(ByteBuffer(bytes: stream[..<split]))
            try channel.writeInbound(ByteBuffer(bytes: stream[split...]))
            var frames: [BinaryGatewayFrame] = []
            while let frame = try channel.readInbound(as: BinaryGatewayFrame.self) { frames.append(frame) }
            #expect(frames == expected, "split at \(split)")
            _ = try channel.finish()
        }
        #expect(try Self.decode(stream, chunk: stream.count) == expected)
    }

    @Test("each item of a frame is optional and read into its field")
    func frameItems() throws {
        let items: [(id: UInt8, data: [UInt8])] = [
            (5, [10]), (3, [0, 0, 1, 0]), (2, Self.payload), (4, [0, 0, 0, 9]), (1, [1, 2]),
        ]
        let bytes = Self.bytes { BinaryPushEncoder.writeFrame(items: items, into: &$0) }
        let expected = BinaryPushRequest(
            command: 2, identifier: 256, expiry: 9, token: [1, 2], payload: Self.payload, priority: 10)
        #expect(try Self.decode(bytes) == [.push(expected)])
        let empty = Self.bytes { BinaryPushEncoder.writeFrame(items: [], into: &$0) }
        #expect(try Self.decode(empty) == [.push(BinaryPushRequest(command: 2, token: [], payload: []))])
    }

    static let malformedFrames: [(name: String, items: [(id: UInt8, data: [UInt8])], identifier: UInt32)] = [
        ("unknown item id", [(3, [0, 0, 0, 4]), (6, [1])], 4),
        ("item id 0", [(0, [])], 0),
        ("duplicate token", [(1, token), (1, token)], 0),
        ("duplicate identifier", [(3, [0, 0, 0, 1]), (3, [0, 0, 0, 2])], 1),
        ("identifier of 3 bytes", [(3, [0, 0, 1])], 0),
        ("expiry of 8 bytes", [(3, [0, 0, 0, 5]), (4, [0, 0, 0, 0, 0, 0, 0, 1])], 5),
        ("priority of 2 bytes", [(5, [0, 10])], 0),
    ]

    @Test("a frame that does not parse is malformed, with the identifier read so far")
    func malformedItems() throws {
        for case (let name, let items, let identifier) in Self.malformedFrames {
            let bytes = Self.bytes { BinaryPushEncoder.writeFrame(items: items, into: &$0) }
            let frames = try Self.decode(bytes)
            guard case .malformed(let got, _)? = frames.first, frames.count == 1 else {
                Issue.record("\(name): \(frames)")
                continue
            }
            #expect(got == identifier, "\(name)")
        }
    }

    @Test("items overrunning the frame are malformed")
    func overrun() throws {
        // Frame length 5 claims less than the item header says: id 2, length 100.
        let short: [UInt8] = [2, 0, 0, 0, 5, 2, 0, 100, 1, 2]
        #expect(try Self.decode(short).count == 1)
        guard case .malformed? = try Self.decode(short).first else {
            Issue.record("not malformed")
            return
        }
        // A frame of 2 bytes cannot hold an item header.
        guard case .malformed? = try Self.decode([2, 0, 0, 0, 2, 1, 0]).first else {
            Issue.record("not malformed")
            return
        }
    }

    @Test("an unknown command byte is malformed, and what follows it is dropped")
    func unknownCommand() throws {
        let good = Self.everyCommand[0].bytes
        let frames = try Self.decode(good + [9] + good, chunk: 3)
        #expect(frames.count == 2)
        #expect(frames.first == .push(Self.everyCommand[0].request))
        guard case .malformed(0, let detail)? = frames.last else {
            Issue.record("\(frames)")
            return
        }
        #expect(detail.contains("unknown command 9"))
    }

    @Test("a frame length no frame can have is refused before its bytes arrive")
    func oversizedFrameLength() throws {
        // Only the five header bytes are sent: the decoder must not wait for 4 GiB.
        let frames = try Self.decode([2, 0xFF, 0xFF, 0xFF, 0xFF])
        guard case .malformed(0, _)? = frames.first else {
            Issue.record("\(frames)")
            return
        }
        let largest = BinaryGatewayDecoder.maximumFrameLength
        let header: [UInt8] = [
            2, UInt8(largest >> 24), UInt8(largest >> 16 & 0xFF), UInt8(largest >> 8 & 0xFF), UInt8(largest & 0xFF),
        ]
        #expect(try Self.decode(header).isEmpty, "the largest parsable length waits for its bytes")
    }

    @Test("a decoder keeps no more than the bytes that arrived for a large claimed length")
    func noAllocationAhead() throws {
        var buffer = ByteBuffer(bytes: [0, 0xFF, 0xFF])
        #expect(BinaryGatewayDecoder.next(from: &buffer) == nil)
        #expect(buffer.readableBytes == 3)
        #expect(buffer.capacity < 1024)
    }

    @Test("every status writes as 8 · status · identifier and reads back", arguments: BinaryStatus.all)
    func errorResponse(_ status: BinaryStatus) {
        let response = BinaryErrorResponse(status: status, identifier: 0x0102_0304)
        var buffer = ByteBuffer()
        response.write(into: &buffer)
        #expect(Array(buffer.readableBytesView) == [8, status.code, 1, 2, 3, 4])
        #expect(BinaryErrorResponse.read(from: &buffer) == response)
        #expect(buffer.readableBytes == 0)
    }

    @Test("an error response is not read before all six bytes are there")
    func partialErrorResponse() {
        var buffer = ByteBuffer(bytes: [8, 1, 0, 0, 0])
        #expect(BinaryErrorResponse.read(from: &buffer) == nil)
        #expect(buffer.readableBytes == 5)
    }

    @Test("feedback tuples write as time · length · token and read back one by one")
    func feedbackTuples() {
        let tuples = [
            FeedbackTuple(time: 1_800_000_000, token: Self.token), FeedbackTuple(time: 1, token: Array(repeating: 7, count: 100)),
        ]
        var buffer = ByteBuffer()
        for tuple in tuples { tuple.write(into: &buffer) }
        #expect(Array(buffer.readableBytesView.prefix(6)) == [0x6B, 0x49, 0xD2, 0x00, 0, 32])
        #expect(buffer.readableBytes == 6 + 32 + 6 + 100)
        var read: [FeedbackTuple] = []
        var partial = buffer.getSlice(at: 0, length: 20) ?? ByteBuffer()
        #expect(FeedbackTuple.read(from: &partial) == nil)
        while let tuple = FeedbackTuple.read(from: &buffer) { read.append(tuple) }
        #expect(read == tuples)
    }
}

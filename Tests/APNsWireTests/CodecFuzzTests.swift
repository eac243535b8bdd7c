import APNsCore
import APNsWire
import NIOCore
import NIOEmbedded
import Testing

/// A small deterministic generator (SplitMix64): the same seed gives the same cases on every run,
/// so a failure names its seed and can be replayed.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64

    mutating func next() -> UInt64 {
        self.state &+= 0x9E37_79B9_7F4A_7C15
        var z = self.state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Generated streams through the legacy gateway and device codecs, cut at random places: no
/// crash, and exactly the answers an independent model of the format expects (issue 13).
@Suite("Codec fuzzing")
struct CodecFuzzTests {
    static let cases = 2000

    // MARK: Legacy gateway

    /// One generated gateway command: its bytes, and what the decoder must make of it (a push, or
    /// malformed naming the identifier read so far).
    struct GatewayCase {
        var bytes: [UInt8]
        var expected: BinaryGatewayFrame
    }

    static func bytes(_ count: Int, _ random: inout SeededGenerator) -> [UInt8] {
        (0..<count).map { _ in UInt8.random(in: 0...255, using: &random) }
    }

    static func written(_ body: (inout ByteBuffer) -> Void) -> [UInt8] {
        var buffer = ByteBuffer()
        body(&buffer)
        return Array(buffer.readableBytesView)
    }

    /// A command 2 frame of random items, some of them wrong, with the model's verdict.
    static func frameCase(_ random: inout SeededGenerator) -> GatewayCase {
        var items: [(id: UInt8, data: [UInt8])] = []
        var request = BinaryPushRequest(command: 2, token: [], payload: [])
        var seen = Set<UInt8>()
        var verdict: BinaryGatewayFrame?
        for _ in 0..<Int.random(in: 0...6, using: &random) {
            let wrong = Int.random(in: 0..<12, using: &random) == 0
            let id = wrong ? [0, 6, 200, 3, 4, 5].randomElement(using: &random)! : UInt8.random(in: 1...5, using: &random)
            let size: Int =
                switch id {
                case 3, 4: wrong ? Int.random(in: 0...8, using: &random) : 4
                case 5: wrong ? Int.random(in: 0...3, using: &random) : 1
                default: Int.random(in: 0...40, using: &random)
                }
            let data = Self.bytes(size, &random)
            items.append((id, data))
            guard verdict == nil else { continue }
            let fixed: Int? = id == 3 || id == 4 ? 4 : id == 5 ? 1 : nil
            if !(1...5).contains(id) || seen.contains(id) || (fixed != nil && fixed != size) {
                verdict = .malformed(identifier: request.identifier, detail: "")
                continue
            }
            seen.insert(id)
            switch id {
            case 1: request.token = data
            case 2: request.payload = data
            case 3: request.identifier = data.reduce(0) { $0 << 8 | UInt32($1) }
            case 4: request.expiry = data.reduce(0) { $0 << 8 | UInt32($1) }
            default: request.priority = data[0]
            }
        }
        let bytes = Self.written { BinaryPushEncoder.writeFrame(items: items, into: &$0) }
        return GatewayCase(bytes: bytes, expected: verdict ?? .push(request))
    }

    static func gatewayCase(_ random: inout SeededGenerator) -> GatewayCase {
        let token = Self.bytes(Int.random(in: 0...40, using: &random), &random)
        let payload = Self.bytes(Int.random(in: 0...60, using: &random), &random)
        switch Int.random(in: 0..<8, using: &random) {
        case 0:
            return GatewayCase(
                bytes: Self.written { BinaryPushEncoder.writeSimple(token: token, payload: payload, into: &$0) },
                expected: .push(BinaryPushRequest(command: 0, token: token, payload: payload))
            )
        case 1:
            let identifier = UInt32.random(in: 0...UInt32.max, using: &random)
            let expiry = UInt32.random(in: 0...UInt32.max, using: &random)
            return GatewayCase(
                bytes: Self.written {
                    BinaryPushEncoder.writeEnhanced(
                        identifier: identifier, expiry: expiry, token: token, payload: payload, into: &$0)
                },
                expected: .push(
                    BinaryPushRequest(command: 1, identifier: identifier, expiry: expiry, token: token, payload: payload))
            )
        case 2:
            let command = UInt8.random(in: 3...255, using: &random)
            return GatewayCase(bytes: [command] + Self.bytes(10, &random), expected: .malformed(identifier: 0, detail: ""))
        default:
            return Self.frameCase(&random)
        }
    }

    /// What the decoder makes of `bytes`, fed in random pieces.
    static func decode(_ bytes: [UInt8], _ random: inout SeededGenerator) throws -> [BinaryGatewayFrame] {
        let channel = EmbeddedChannel(handler: ByteToMessageHandler(BinaryGatewayDecoder()))
        var frames: [BinaryGatewayFrame] = []
        var index = 0
        while index < bytes.count {
            let end = min(bytes.count, index + Int.random(in: 1...97, using: &random))
            try channel.writeInbound(ByteBuffer(bytes: bytes[index..<end]))
            while let frame = try channel.readInbound(as: BinaryGatewayFrame.self) { frames.append(frame) }
            index = end
        }
        _ = try channel.finish(acceptAlreadyClosed: true)
        return frames
    }

    /// Malformed frames compare by identifier only: the detail is for people.
    static func same(_ a: BinaryGatewayFrame, _ b: BinaryGatewayFrame) -> Bool {
        switch (a, b) {
        case (.push(let x), .push(let y)): return x == y
        case (.malformed(let x, _), .malformed(let y, _)): return x == y
        default: return false
        }
    }

    @Test("gateway: streams of generated commands decode exactly up to and including the first malformed one")
    func gateway() throws {
        var random = SeededGenerator(state: 0x4150_4E53)
        var malformedSeen = 0
        for run in 0..<Self.cases {
            let commands = (0..<Int.random(in: 1...6, using: &random)).map { _ in Self.gatewayCase(&random) }
            var expected: [BinaryGatewayFrame] = []
            for command in commands {
                expected.append(command.expected)
                if case .malformed = command.expected {
                    malformedSeen += 1
                    break
                }
            }
            let decoded = try Self.decode(commands.flatMap(\.bytes), &random)
            let matches = decoded.count == expected.count && zip(decoded, expected).allSatisfy(Self.same)
            #expect(matches, "run \(run): expected \(expected), decoded \(decoded)")
            if !matches { return }
        }
        #expect(malformedSeen > Self.cases / 10, "the generator makes malformed frames too")
    }

    @Test("gateway: random bytes never crash the decoder, and nothing follows a malformed frame")
    func gatewayGarbage() throws {
        var random = SeededGenerator(state: 0x6761_7262)
        for _ in 0..<Self.cases {
            let decoded = try Self.decode(Self.bytes(Int.random(in: 1...300, using: &random), &random), &random)
            if let bad = decoded.firstIndex(where: { if case .malformed = $0 { return true } else { return false } }) {
                #expect(bad == decoded.count - 1)
            }
        }
    }

    // MARK: Device protocol

    static func text(_ random: inout SeededGenerator, _ maximum: Int = 40) -> String {
        let alphabet = Array("abcXYZ019.-_é€😀")
        return String((0..<Int.random(in: 0...maximum, using: &random)).map { _ in alphabet.randomElement(using: &random)! })
    }

    static func token(_ random: inout SeededGenerator) -> DeviceToken {
        DeviceToken(bytes: Self.bytes(Int.random(in: 32...100, using: &random), &random))!
    }

    static func clientMessage(_ random: inout SeededGenerator) -> DeviceClientMessage {
        switch Int.random(in: 0..<18, using: &random) {
        case 0:
            let credential = Bool.random(using: &random) ? Self.text(&random) : nil
            return .hello(version: UInt8.random(in: 0...255, using: &random), deviceID: Self.text(&random), credential: credential)
        case 1: return .register(topic: Self.text(&random))
        case 2: return .resume(tokens: (0..<Int.random(in: 0...5, using: &random)).map { _ in Self.token(&random) })
        case 3: return .unregister(topic: Self.text(&random))
        case 4: return .ack(uniqueID: Self.text(&random))
        case 5:
            return .authorize(
                topic: Self.text(&random), options: UInt8.random(in: 0...255, using: &random), allow: Bool.random(using: &random))
        case 6: return .configure(topic: Self.text(&random), document: Array(Self.text(&random).utf8))
        case 7:
            let text = Bool.random(using: &random) ? Self.text(&random) : nil
            return .respond(
                uniqueID: Self.text(&random), action: Self.text(&random), text: text,
                context: UInt8.random(in: 0...255, using: &random))
        case 8: return .schedule(topic: Self.text(&random), document: Array(Self.text(&random).utf8))
        case 9: return .listPending(topic: Self.text(&random))
        case 10: return .cancel(topic: Self.text(&random), identifier: Bool.random(using: &random) ? Self.text(&random) : nil)
        case 12: return .declareActivities(topic: Self.text(&random), document: Array(Self.text(&random).utf8))
        case 13: return .startActivity(topic: Self.text(&random), document: Array(Self.text(&random).utf8))
        case 14:
            return .endActivity(
                topic: Self.text(&random), activityID: Self.text(&random), document: Array(Self.text(&random).utf8))
        case 15: return .listActivities(topic: Self.text(&random))
        case 16: return .power(document: Array(Self.text(&random).utf8))
        case 17: return .webApp(action: Self.text(&random), document: Array(Self.text(&random).utf8))
        default: return .ping(UInt64.random(in: 0...UInt64.max, using: &random))
        }
    }

    static func serverMessage(_ random: inout SeededGenerator) -> DeviceServerMessage {
        switch Int.random(in: 0..<20, using: &random) {
        case 6:
            return .authorization(
                topic: Self.text(&random), status: UInt8.random(in: 0...2, using: &random),
                options: UInt8.random(in: 0...7, using: &random),
                granted: Bool.random(using: &random), prompted: Bool.random(using: &random)
            )
        case 7: return .app(topic: Self.text(&random), document: Array(Self.text(&random).utf8))
        case 8: return .presented(uniqueID: Self.text(&random), document: Array(Self.text(&random).utf8))
        case 9: return .response(uniqueID: Self.text(&random), document: Array(Self.text(&random).utf8))
        case 10:
            return .refused(
                subject: Self.text(&random), status: UInt16.random(in: 0...999, using: &random), message: Self.text(&random))
        case 11: return .scheduled(topic: Self.text(&random), document: Array(Self.text(&random).utf8))
        case 12: return .pending(topic: Self.text(&random), document: Array(Self.text(&random).utf8))
        case 13: return .cancelled(topic: Self.text(&random), removed: UInt16.random(in: 0...UInt16.max, using: &random))
        case 15: return .activity(topic: Self.text(&random), document: Array(Self.text(&random).utf8))
        case 16:
            return .activityToken(
                topic: Self.text(&random), activityID: Bool.random(using: &random) ? Self.text(&random) : nil,
                token: Self.token(&random))
        case 17: return .activities(topic: Self.text(&random), document: Array(Self.text(&random).utf8))
        case 18: return .power(document: Array(Self.text(&random).utf8))
        case 19: return .webApp(document: Array(Self.text(&random).utf8))
        case 0: return .welcome(version: UInt8.random(in: 0...255, using: &random))
        case 1: return .registered(topic: Self.text(&random), token: Self.token(&random))
        case 2:
            let statuses: [ResumeResult.Status] = [.resumed, .unknown, .unregistered]
            return .resumed(
                (0..<Int.random(in: 0...4, using: &random)).map { _ in
                    ResumeResult(token: Self.token(&random), status: statuses.randomElement(using: &random)!)
                })
        case 3:
            return .unregistered(
                topic: Self.text(&random), token: Self.token(&random), timestamp: Int64.random(in: 0...Int64.max, using: &random))
        case 4: return .pong(UInt64.random(in: 0...UInt64.max, using: &random))
        default: return .error(code: .invalidArgument, message: Self.text(&random))
        }
    }

    /// Frames out of `bytes`, fed to the decoder in random pieces.
    static func frames(_ bytes: [UInt8], _ random: inout SeededGenerator) throws -> [DeviceFrame] {
        let channel = EmbeddedChannel(handler: ByteToMessageHandler(DeviceFrameDecoder()))
        var frames: [DeviceFrame] = []
        var index = 0
        while index < bytes.count {
            let end = min(bytes.count, index + Int.random(in: 1...64, using: &random))
            try channel.writeInbound(ByteBuffer(bytes: bytes[index..<end]))
            while let frame = try channel.readInbound(as: DeviceFrame.self) { frames.append(frame) }
            index = end
        }
        _ = try channel.finish(acceptAlreadyClosed: true)
        return frames
    }

    static func encoded(_ frames: [DeviceFrame]) throws -> [UInt8] {
        var out = ByteBuffer()
        for frame in frames { try DeviceFrameEncoder().encode(data: frame, out: &out) }
        return Array(out.readableBytesView)
    }

    @Test("device protocol: generated messages both ways survive framing and any split exactly")
    func deviceRoundTrip() throws {
        var random = SeededGenerator(state: 0x6465_7669)
        for run in 0..<Self.cases / 4 {
            let client = (0..<Int.random(in: 1...8, using: &random)).map { _ in Self.clientMessage(&random) }
            let clientFrames = try Self.frames(Self.encoded(client.map { $0.frame() }), &random)
            #expect(try clientFrames.map(DeviceClientMessage.init(frame:)) == client, "run \(run)")
            let server = (0..<Int.random(in: 1...8, using: &random)).map { _ in Self.serverMessage(&random) }
            let serverFrames = try Self.frames(Self.encoded(server.map { $0.frame() }), &random)
            #expect(try serverFrames.map(DeviceServerMessage.init(frame:)) == server, "run \(run)")
        }
    }

    @Test(
        "device protocol: a truncated or padded body is malformedFrame, an unknown type unknownMessage; random bytes never crash")
    func deviceMistakes() throws {
        var random = SeededGenerator(state: 0x6261_6462)
        for _ in 0..<Self.cases / 2 {
            let message = Self.clientMessage(&random)
            var body = message.frame().body
            let bytes = body.readBytes(length: body.readableBytes) ?? []
            let padded = DeviceFrame(type: message.frame().type, body: ByteBuffer(bytes: bytes + [0]))
            #expect(throws: DeviceProtocolError.self) { try DeviceClientMessage(frame: padded) }
            if !bytes.isEmpty {
                let cut = DeviceFrame(
                    type: message.frame().type,
                    body: ByteBuffer(bytes: bytes.dropLast(Int.random(in: 1...bytes.count, using: &random))))
                do {
                    _ = try DeviceClientMessage(frame: cut)
                    // A cut that lands on a shorter valid body (a resume with fewer tokens cannot: its count says how many).
                } catch let error as DeviceProtocolError {
                    #expect(error.code == .malformedFrame)
                }
            }
            let unknown = DeviceFrame(type: UInt8.random(in: 0x13...0x7F, using: &random), body: ByteBuffer(bytes: bytes))
            #expect { try DeviceClientMessage(frame: unknown) } throws: { ($0 as? DeviceProtocolError)?.code == .unknownMessage }
        }
        for _ in 0..<Self.cases {
            let garbage = Self.bytes(Int.random(in: 1...200, using: &random), &random)
            var buffer = ByteBuffer(bytes: garbage)
            while true {
                guard let frame = try? DeviceFrameDecoder.next(from: &buffer) else { break }
                _ = try? DeviceClientMessage(frame: frame)
                _ = try? DeviceServerMessage(frame: frame)
            }
        }
    }
}

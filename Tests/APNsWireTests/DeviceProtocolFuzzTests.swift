import APNsCore
import APNsTestSupport
import APNsWire
import NIOCore
import NIOEmbedded
import Testing

/// Generated device-protocol messages both ways, framed and cut at random places: no crash,
/// and exactly what was sent comes out (issue 13). The generator is ``SeededGenerator``.
@Suite("Codec fuzzing: the device protocol")
struct DeviceProtocolFuzzTests {
    static let cases = CodecFuzzTests.cases

    static func bytes(_ count: Int, _ random: inout SeededGenerator) -> [UInt8] { CodecFuzzTests.bytes(count, &random) }

    static func text(_ random: inout SeededGenerator, _ maximum: Int = 40) -> String {
        let alphabet = Array("abcXYZ019.-_é€😀")
        return String((0..<Int.random(in: 0...maximum, using: &random)).map { _ in alphabet.randomElement(using: &random)! })
    }

    static func token(_ random: inout SeededGenerator) -> DeviceToken {
        DeviceToken(bytes: Self.bytes(Int.random(in: 32...100, using: &random), &random))!
    }

    static func clientMessage(_ random: inout SeededGenerator) -> DeviceClientMessage {
        switch Int.random(in: 0..<19, using: &random) {
        case 0:
            let credential = Bool.random(using: &random) ? Self.text(&random) : nil
            return .hello(
                version: UInt8.random(in: 0...255, using: &random), deviceID: Self.text(&random), credential: credential)
        case 1:
            let environment = [nil, APNsEnvironment.development, .production].randomElement(using: &random) ?? nil
            return .register(topic: Self.text(&random), environment: environment)
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
        case 18: return .extended(uniqueID: Self.text(&random), document: Array(Self.text(&random).utf8))
        default: return .ping(UInt64.random(in: 0...UInt64.max, using: &random))
        }
    }

    static func serverMessage(_ random: inout SeededGenerator) -> DeviceServerMessage {
        switch Int.random(in: 0..<21, using: &random) {
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
        case 20: return .extend(uniqueID: Self.text(&random), document: Array(Self.text(&random).utf8))
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

    @Test(
        "device protocol: generated messages both ways survive framing and any split exactly",
        arguments: SeededGenerator.seeds(fixed: 0x6465_7669))
    func deviceRoundTrip(seed: UInt64) throws {
        var random = SeededGenerator(state: seed)
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
        "device protocol: a truncated or padded body is malformedFrame, an unknown type unknownMessage; random bytes never crash",
        arguments: SeededGenerator.seeds(fixed: 0x6261_6462))
    func deviceMistakes(seed: UInt64) throws {
        var random = SeededGenerator(state: seed)
        var refusedCuts = 0
        for _ in 0..<Self.cases / 2 {
            let message = Self.clientMessage(&random)
            var body = message.frame().body
            let bytes = body.readBytes(length: body.readableBytes) ?? []
            let padded = DeviceFrame(type: message.frame().type, body: ByteBuffer(bytes: bytes + [0]))
            if case .register(let topic, nil) = message {
                // A register's one optional byte: a 0 after the topic asks for development.
                #expect(try DeviceClientMessage(frame: padded) == .register(topic: topic, environment: .development))
            } else {
                #expect(throws: DeviceProtocolError.self) { try DeviceClientMessage(frame: padded) }
            }
            if !bytes.isEmpty {
                let cut = DeviceFrame(
                    type: message.frame().type,
                    body: ByteBuffer(bytes: bytes.dropLast(Int.random(in: 1...bytes.count, using: &random))))
                do {
                    // A cut that lands on a shorter valid body decodes to another message, never to
                    // the one it was cut from (bytes ignored).
                    let decoded = try DeviceClientMessage(frame: cut)
                    #expect(decoded != message, "a cut body decoded as the whole message \(message)")
                } catch let error as DeviceProtocolError {
                    #expect(error.code == .malformedFrame)
                    refusedCuts += 1
                }
            }
            let unknown = DeviceFrame(type: UInt8.random(in: 0x14...0x7F, using: &random), body: ByteBuffer(bytes: bytes))
            #expect { try DeviceClientMessage(frame: unknown) } throws: { ($0 as? DeviceProtocolError)?.code == .unknownMessage }
        }
        #expect(refusedCuts > Self.cases / 8, "only \(refusedCuts) cut bodies were refused: the check above barely ran")
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

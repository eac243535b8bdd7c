import APNsCore
import APNsTestSupport
import APNsWire
import NIOCore
import NIOEmbedded
import Testing

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

    @Test(
        "gateway: streams of generated commands decode exactly up to and including the first malformed one",
        arguments: SeededGenerator.seeds(fixed: 0x4150_4E53))
    func gateway(seed: UInt64) throws {
        var random = SeededGenerator(state: seed)
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

    @Test(
        "gateway: random bytes never crash the decoder, and nothing follows a malformed frame",
        arguments: SeededGenerator.seeds(fixed: 0x6761_7262))
    func gatewayGarbage(seed: UInt64) throws {
        var random = SeededGenerator(state: seed)
        var malformed = 0
        for _ in 0..<Self.cases {
            let decoded = try Self.decode(Self.bytes(Int.random(in: 1...300, using: &random), &random), &random)
            if let bad = decoded.firstIndex(where: { if case .malformed = $0 { return true } else { return false } }) {
                #expect(bad == decoded.count - 1)
                malformed += 1
            }
        }
        // The check above ran: random bytes make malformed frames (a command byte other than 0, 1
        // or 2 is one), so a run with none would have checked nothing.
        #expect(malformed > Self.cases / 2, "only \(malformed) of \(Self.cases) random streams held a malformed frame")
    }
}

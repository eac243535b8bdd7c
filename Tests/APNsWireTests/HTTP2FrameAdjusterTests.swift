import APNsWire
import NIOCore
import Testing

@Suite("HTTP/2 frame adjuster")
struct HTTP2FrameAdjusterTests {
    static func frame(_ type: UInt8, flags: UInt8 = 0, stream: UInt32 = 0, _ payload: [UInt8]) -> [UInt8] {
        let length = UInt32(payload.count)
        return [UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF), type, flags,
                UInt8(stream >> 24), UInt8(stream >> 16 & 0xFF), UInt8(stream >> 8 & 0xFF), UInt8(stream & 0xFF)] + payload
    }

    static func word(_ value: UInt32) -> [UInt8] { [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)] }

    func adjuster() -> HTTP2FrameAdjuster {
        HTTP2FrameAdjuster(headerListSize: 8000, lastStreamID: { 7 }, resetCode: { stream, code in stream == 3 && code == 1 ? 5 : code })
    }

    @Test("a connection error's GOAWAY names the last stream processed (RFC 9113 6.8) and is reported; NO_ERROR ones are left alone")
    func goAway() {
        var adjuster = self.adjuster()
        var buffer = ByteBuffer(bytes: Self.frame(0x7, Self.word(UInt32(Int32.max)) + Self.word(1)))
        let r1 = adjuster.adjust(&buffer)
        #expect(r1)
        #expect(Array(buffer.readableBytesView.dropFirst(9).prefix(4)) == Self.word(7))
        var ours = ByteBuffer(bytes: Self.frame(0x7, Self.word(5) + Self.word(0)))
        let r2 = adjuster.adjust(&ours)
        #expect(!r2)
        #expect(Array(ours.readableBytesView.dropFirst(9).prefix(4)) == Self.word(5))
    }

    @Test("the first SETTINGS advertises the header list size; RST_STREAM codes go through resetCode")
    func settingsAndResets() {
        var adjuster = self.adjuster()
        var settings = ByteBuffer(bytes: Self.frame(0x4, [0, 3, 0, 0, 3, 0xE8, 0, 6, 0, 0, 0x40, 0]))
        _ = adjuster.adjust(&settings)
        #expect(Array(settings.readableBytesView.suffix(6)) == [0, 6, 0, 0, 0x1F, 0x40])
        #expect(Array(settings.readableBytesView.dropFirst(9).prefix(6)) == [0, 3, 0, 0, 3, 0xE8])
        var reset = ByteBuffer(bytes: Self.frame(0x3, stream: 3, Self.word(1)) + Self.frame(0x3, stream: 1, Self.word(1)))
        _ = adjuster.adjust(&reset)
        #expect(Array(reset.readableBytesView) == Self.frame(0x3, stream: 3, Self.word(5)) + Self.frame(0x3, stream: 1, Self.word(1)))
    }

    @Test("DATA payloads, in the same buffer or written after their header, are never read as frames")
    func dataPayloads() {
        var adjuster = self.adjuster()
        let lookalike = Self.frame(0x7, Self.word(UInt32(Int32.max)) + Self.word(1))
        var header = ByteBuffer(bytes: Array(Self.frame(0x0, stream: 1, lookalike).prefix(9)))
        let r3 = adjuster.adjust(&header)
        #expect(!r3)
        var payload = ByteBuffer(bytes: lookalike)
        let r4 = adjuster.adjust(&payload)
        #expect(!r4)
        #expect(Array(payload.readableBytesView) == lookalike)
        var whole = ByteBuffer(bytes: Self.frame(0x0, stream: 1, lookalike) + Self.frame(0x3, stream: 3, Self.word(1)))
        let r5 = adjuster.adjust(&whole)
        #expect(!r5)
        #expect(Array(whole.readableBytesView.prefix(9 + lookalike.count)) == Self.frame(0x0, stream: 1, lookalike))
        #expect(Array(whole.readableBytesView.suffix(4)) == Self.word(5))
    }
}

import APNsTestSupport
import Foundation
import NIOCore
import Testing

/// After a connection error (NIOHTTP2 answers it with GOAWAY) the emulator stops reading and
/// closes, so a client that goes on sending cannot make it buffer without end (issue 13, item 2;
/// h2spec 5.4.1/1).
@Suite("HTTP/2 connection errors")
struct HTTP2ConnectionErrorTests {
    static let preface = Array("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".utf8)

    /// One frame: length, type, flags, stream id, payload.
    static func frame(type: UInt8, flags: UInt8 = 0, stream: UInt32 = 0, _ payload: [UInt8] = []) -> [UInt8] {
        let length = UInt32(payload.count)
        return [
            UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF), type, flags,
            UInt8(stream >> 24 & 0x7F), UInt8(stream >> 16 & 0xFF), UInt8(stream >> 8 & 0xFF), UInt8(stream & 0xFF),
        ] + payload
    }

    /// The frames in `bytes`, as (type, payload).
    static func frames(_ bytes: [UInt8]) -> [(type: UInt8, payload: [UInt8])] {
        var frames: [(type: UInt8, payload: [UInt8])] = []
        var offset = 0
        while offset + 9 <= bytes.count {
            let length = Int(bytes[offset]) << 16 | Int(bytes[offset + 1]) << 8 | Int(bytes[offset + 2])
            guard offset + 9 + length <= bytes.count else { break }
            frames.append((bytes[offset + 3], Array(bytes[offset + 9..<offset + 9 + length])))
            offset += 9 + length
        }
        return frames
    }

    @Test("an invalid PING gets GOAWAY FRAME_SIZE_ERROR, and the connection is closed though the client keeps sending")
    func invalidPing() async throws {
        try await withEmulator { emulator in
            // A PING of 6 bytes (it must have 8), then 4 MiB more of PINGs the server must not read.
            var sending = Self.preface + Self.frame(type: 4) + Self.frame(type: 6, [1, 2, 3, 4, 5, 6])
            let ping = Self.frame(type: 6, [UInt8](repeating: 0, count: 8))
            for _ in 0..<(4 << 20) / ping.count { sending += ping }
            let received = try await RawTLSClient.exchange(
                host: "127.0.0.1", port: emulator.http2Port, caPath: emulator.caPath, sending: sending, timeout: .seconds(20)
            )
            let goAway = try #require(
                Self.frames(received).first { $0.type == 7 }, "no GOAWAY among \(Self.frames(received).map(\.type))")
            let code =
                goAway.payload.count >= 8
                ? UInt32(goAway.payload[4]) << 24 | UInt32(goAway.payload[5]) << 16 | UInt32(goAway.payload[6]) << 8
                    | UInt32(goAway.payload[7]) : 0
            #expect(code == 6, "FRAME_SIZE_ERROR")
            // The emulator serves others as before.
            let provider = try await emulator.http2Client()
            #expect(
                try await provider.push(token: String(repeating: "ab", count: 32), topic: "t").status == 200)
        }
    }
}

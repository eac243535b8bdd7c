import APNsCore
import APNsTestSupport
import APNsWire
import Foundation
import Testing

/// A payload whose strings are not UTF-8 is not a JSON object (RFC 8259 section 8.1, RFC 3629):
/// refused on both interfaces, and never stored for the admin API to serve (issue 13, item 11).
@Suite("Invalid UTF-8 in payload strings")
struct InvalidUTF8Tests {
    static let bad: [[UInt8]] = [[0xED, 0xA0, 0x80], [0xE0, 0x80, 0x80], [0xF4, 0x90, 0x80, 0x80]]

    static func payload(_ bytes: [UInt8]) -> [UInt8] { Array(#"{"aps":{"alert":""#.utf8) + bytes + Array(#""}}"#.utf8) }

    @Test("HTTP/2: 400 PayloadEmpty; the gateway: status 4; nothing is queued")
    func refused() async throws {
        try await withEmulator { emulator in
            let provider = try await emulator.http2Client()
            let token = String(repeating: "ab", count: 32)
            for bytes in Self.bad {
                let answer = try await provider.send(
                    path: "/3/device/\(token)", headers: [("apns-topic", "com.example.app")], body: Self.payload(bytes))
                #expect(answer.status == 400 && answer.reason == "PayloadEmpty", "\(bytes)")
            }
            for (n, bytes) in Self.bad.enumerated() {
                var stream = BinaryStream()
                let identifier = UInt32(n + 1)
                stream.frame(
                    BinaryPushRequest(
                        command: 2, identifier: identifier, token: DeviceToken(hex: token)!.bytes, payload: Self.payload(bytes)))
                let response = try await emulator.gateway(stream)
                #expect(response == BinaryErrorResponse(status: .missingPayload, identifier: identifier), "\(bytes)")
            }
            let queued = try await emulator.admin("/api/v1/devices/\(token)/notifications")
            #expect(queued.text == "[]")
        }
    }
}

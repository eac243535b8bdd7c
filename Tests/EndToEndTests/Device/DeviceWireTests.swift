import APNsCore
import APNsDeviceClient
import APNsServer
import APNsTestSupport
import APNsWire
import Foundation
import NIOCore
import Testing

/// The device protocol's framing and errors on a real socket.
@Suite("Device protocol over the wire")
struct DeviceWireTests {
    /// The error frame the server sent, if the bytes are exactly one.
    func errorFrame(_ bytes: [UInt8]) throws -> DeviceServerMessage? {
        var buffer = ByteBuffer(bytes: bytes)
        var messages: [DeviceServerMessage] = []
        while let frame = try DeviceFrameDecoder.next(from: &buffer) { messages.append(try DeviceServerMessage(frame: frame)) }
        return messages.last
    }

    func hello() throws -> [UInt8] {
        var out = ByteBuffer()
        try DeviceFrameEncoder().encode(data: DeviceClientMessage.hello(version: 1, deviceID: "raw").frame(), out: &out)
        return Array(out.readableBytesView)
    }

    @Test(
        "malformed frames get an error frame, then the connection is closed",
        arguments: [
            ("unknown type", [0, 0, 0, 1, 0x7E] as [UInt8], DeviceErrorCode.unknownMessage),
            ("body too short", [0, 0, 0, 3, 0x06, 1, 2], .malformedFrame),
            ("huge length", [0x7F, 0xFF, 0xFF, 0xFF, 0x01], .frameTooLarge),
            ("zero length", [0, 0, 0, 0], .frameTooLarge),
            ("bad token size", [0, 0, 0, 6, 0x03, 0, 1, 0, 1, 9], .invalidArgument),
        ]
    )
    func malformed(_ name: String, _ garbage: [UInt8], _ code: DeviceErrorCode) async throws {
        try await withEmulator { emulator in
            let received = try await RawTLSClient.exchange(
                host: "127.0.0.1", port: emulator.devicePort, caPath: emulator.caPath, sending: try self.hello() + garbage
            )
            guard case .error(let sent, _) = try self.errorFrame(received) else {
                Issue.record("\(name): expected an error frame, got \(received)")
                return
            }
            #expect(sent == code, "\(name)")
        }
    }

    @Test("a message before hello is refused; queued notifications survive a broken connection")
    func beforeHelloAndNothingLost() async throws {
        try await withEmulator { emulator in
            let token = try await emulator.offlineToken(topic: "com.example.app")
            let provider = try await emulator.http2Client()
            #expect(try await provider.push(token: token.hex).status == 200)

            var resume = ByteBuffer()
            try DeviceFrameEncoder().encode(data: DeviceClientMessage.resume(tokens: [token]).frame(), out: &resume)
            let received = try await RawTLSClient.exchange(
                host: "127.0.0.1", port: emulator.devicePort, caPath: emulator.caPath, sending: Array(resume.readableBytesView)
            )
            guard case .error(let code, _) = try self.errorFrame(received) else {
                Issue.record("expected an error frame")
                return
            }
            #expect(code == .unexpectedMessage)
            #expect(try await emulator.queued(token.hex).count == 1)
        }
    }
}

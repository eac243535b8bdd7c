import APNsCore
import APNsDeviceClient
import APNsTestSupport
import APNsWire
import Foundation
import NIOCore
import Testing

/// A device's mistakes end its own session with an error frame and harm no one else (issue 13,
/// items 1, 6 and 7), over real TLS.
@Suite("Device mistakes")
struct DeviceMistakeTests {
    static let topic = "com.example.app"

    func refusal(_ error: any Error) -> DeviceErrorCode? {
        guard let error = error as? DeviceClientError, error.code == .refused else { return nil }
        return error.serverCode
    }

    @Test("devices acking empty and unknown ids get invalidArgument, while every provider's push is stored")
    func badAcksHarmNoOne() async throws {
        try await withEmulator { emulator in
            let provider = try await emulator.http2Client()
            var devices: [DeviceClient] = []
            for n in 0..<10 {
                let device = try await emulator.device("careless-\(n)")
                _ = try await device.register(topic: Self.topic)
                devices.append(device)
            }
            let pushes = Task {
                var statuses: [Int] = []
                for n in 0..<300 {
                    let token = String(format: "%064x", n)
                    statuses.append(
                        try await provider.push(token: token, topic: Self.topic, json: #"{"n":\#(n)}"#).status
                    )
                }
                return statuses
            }
            for (n, device) in devices.enumerated() {
                try await device.acknowledge(n % 2 == 0 ? "" : "never-sent-\(n)")
                await #expect { _ = try await device.next(within: .seconds(30)) } throws: { self.refusal($0) == .invalidArgument }
            }
            let statuses = try await pushes.value
            #expect(statuses.allSatisfy { $0 == 200 }, "\(Dictionary(grouping: statuses, by: { $0 }).mapValues(\.count))")
            let page = try await emulator.adminObject("/api/v1/notifications?status=queued&limit=1")
            #expect(page["total"] as? Int == 300)
        }
    }

    @Test("unregister with an empty topic is invalidArgument and unregisters nothing")
    func emptyTopicUnregister() async throws {
        try await withEmulator { emulator in
            // A token the emulator never issued: under --tokens open it resumes, with no known topic.
            let token = try #require(DeviceToken(hex: String(repeating: "ef", count: 32)))
            let device = try await emulator.device("phone")
            #expect(try await device.resume([token]) == [ResumeResult(token: token, status: .resumed)])
            await #expect { _ = try await device.unregister(topic: "") } throws: { self.refusal($0) == .invalidArgument }
            let feedback = try await emulator.admin("/api/v1/feedback")
            #expect(feedback.text == "[]", "nothing was unregistered: \(feedback.text)")
        }
    }

    static func bytes(_ messages: [DeviceClientMessage]) throws -> [UInt8] {
        var out = ByteBuffer()
        for message in messages { try DeviceFrameEncoder().encode(data: message.frame(), out: &out) }
        return Array(out.readableBytesView)
    }

    @Test("register, unregister and ping in one write, then a bad frame: every answer in request order, the error last")
    func answersInOrder() async throws {
        try await withEmulator { emulator in
            // docs/device-protocol.md: each request is answered in turn; a frame of unknown type 0x7F is unknownMessage.
            let sending =
                try Self.bytes([
                    .hello(version: DeviceProtocol.version, deviceID: "hasty"), .register(topic: Self.topic),
                    .unregister(topic: Self.topic), .ping(42), .register(topic: Self.topic),
                ]) + [0, 0, 0, 1, 0x7F]
            let received = try await RawTLSClient.exchange(
                host: "127.0.0.1", port: emulator.devicePort, caPath: emulator.caPath, sending: sending, timeout: .seconds(30)
            )
            var buffer = ByteBuffer(bytes: received)
            var answers: [DeviceServerMessage] = []
            while let frame = try DeviceFrameDecoder.next(from: &buffer) { answers.append(try DeviceServerMessage(frame: frame)) }
            try #require(answers.count == 6, "\(answers)")
            #expect(answers[0] == .welcome(version: DeviceProtocol.version))
            guard case .registered(Self.topic, let token) = answers[1] else {
                Issue.record("not registered: \(answers[1])")
                return
            }
            guard case .unregistered(Self.topic, token, _) = answers[2] else {
                Issue.record("not unregistered: \(answers[2])")
                return
            }
            #expect(answers[3] == .pong(42))
            guard case .registered(Self.topic, let second) = answers[4] else {
                Issue.record("the second register was swallowed: \(answers[4])")
                return
            }
            #expect(second != token)
            guard case .error(.unknownMessage, _) = answers[5] else {
                Issue.record("no error last: \(answers[5])")
                return
            }
            // Both tokens the device learned are what the store holds: the unregistered one is 410.
            let provider = try await emulator.http2Client()
            #expect(try await provider.push(token: second.hex, topic: Self.topic).status == 200)
            #expect(try await provider.push(token: token.hex, topic: Self.topic).status == 410)
        }
    }
}

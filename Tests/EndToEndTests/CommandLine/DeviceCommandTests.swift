import APNsTestSupport
import Foundation
import Testing

@Suite("apns-emulator device")
struct DeviceCommandTests {
    @Test("registers, prints its token, prints each push as a JSON line, acknowledges it and exits after --count")
    func deviceCommand() async throws {
        try await withEmulator { emulator in
            let arguments = [
                "device", "--topic", "com.example.app", "--device-id", "cli", "--device-port", String(emulator.devicePort),
                "--ca", emulator.caPath, "--count", "2",
            ]
            let device = try BackgroundProcess(
                Subprocess.emulatorExecutable, arguments, output: emulator.directory.appending("device.log"))
            let token = try #require(try await device.waitForLines(1).first)
            #expect(token.count == 64)

            let provider = try await emulator.http2Client()
            let first = try await provider.push(token: token, topic: "com.example.app", json: #"{"n":1}"#)
            #expect(first.status == 200)
            _ = try await provider.push(
                token: token, headers: [("apns-topic", "com.example.app"), ("apns-collapse-id", "c")], json: #"{"n":2}"#)
            #expect(await device.wait() == 0)

            let lines = device.lines
            try #require(lines.count == 3, "\(lines)")
            let json = try lines.dropFirst().map {
                try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
            }
            #expect(json[0]["apnsId"] as? String == first.header("apns-id"))
            #expect(json[0]["uniqueId"] as? String == first.header("apns-unique-id"))
            #expect(json[0]["token"] as? String == token)
            #expect((json[0]["payload"] as? [String: Any])?["n"] as? Int == 1)
            #expect(json[1]["collapseId"] as? String == "c")
            // Acknowledged, so nothing is left queued.
            #expect(try await emulator.queued(token).isEmpty)

            // Resuming the token later works too, and --no-ack leaves what it printed queued.
            _ = try await provider.push(token: token, topic: "com.example.app", json: #"{"n":3}"#)
            let resumed = try BackgroundProcess(
                Subprocess.emulatorExecutable,
                [
                    "device", "--token", token, "--device-port", String(emulator.devicePort), "--ca", emulator.caPath, "--count",
                    "1", "--no-ack",
                ],
                output: emulator.directory.appending("device2.log")
            )
            #expect(await resumed.wait() == 0)
            #expect(resumed.lines.count == 2)
            #expect(try await emulator.queued(token).count == 1)
        }
    }
}

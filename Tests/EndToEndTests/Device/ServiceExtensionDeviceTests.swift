import APNsCore
import APNsDevice
import APNsDeviceClient
import APNsTestSupport
import Foundation
import Testing

/// The device as its app's service extension (device protocol version 4): asked with `extend`,
/// it answers with `extended`; the `apns-emulator device --service-extension CMD` command does it
/// with a command. Sources: Apple, UNNotificationServiceExtension (`didReceive(_:withContentHandler:)`
/// gets the request's content; about 30 seconds), `serviceExtensionTimeWillExpire()`.
@Suite("Service extension on the device")
struct ServiceExtensionDeviceTests {
    static let topic = "com.example.sealed"
    static let sealed = #"{"aps":{"alert":{"title":"Ana","body":"(sealed)"},"mutable-content":1},"box":"b64"}"#

    /// A device whose app is authorized and names the device itself as its extension.
    func phone(_ emulator: RunningEmulator, timeout: String = "30s") async throws -> (DeviceClient, DeviceToken) {
        let device = try await emulator.device("iphone-\(UUID().uuidString.prefix(6))")
        let token = try await device.register(topic: Self.topic)
        _ = try await device.requestAuthorization(topic: Self.topic, options: [.alert, .sound], userAllows: true)
        let app = try await device.configure(
            topic: Self.topic, document: Array(#"{"serviceExtension": {"device": true, "timeout": "\#(timeout)"}}"#.utf8))
        #expect(app.serviceExtension?.kind == .device)
        return (device, token)
    }

    @Test("the device is asked with the content, its reply is shown, and presented follows")
    func answered() async throws {
        try await withEmulator { emulator in
            let (device, token) = try await self.phone(emulator)
            let uniqueID = try await emulator.http2Client().accepted(token: token.hex, topic: Self.topic, json: Self.sealed)
            #expect(try await device.next().uniqueID == uniqueID)
            let asked = try await device.nextEvent {
                if case .extend(uniqueID, _) = $0 { return true }
                return false
            }
            guard case .extend(_, let content) = asked else { return }
            #expect(content.title == "Ana" && content.body == "(sealed)" && content.userInfo["box"]?.string == "b64")
            try await device.extended(uniqueID, content: Array(#"{"body": "Dinner at 8?"}"#.utf8))
            let presentation = try await device.presentation(of: uniqueID)
            #expect(presentation.title == "Ana" && presentation.body == "Dinner at 8?")
            #expect(presentation.serviceExtension?.outcome == .modified && presentation.serviceExtension?.kind == "device")
            try await device.acknowledge(uniqueID)
        }
    }

    @Test("a device that does not answer in time gets the original shown (timeWillExpire); its late reply changes nothing")
    func late() async throws {
        try await withEmulator { emulator in
            let (device, token) = try await self.phone(emulator, timeout: "5s")
            let uniqueID = try await emulator.http2Client().accepted(token: token.hex, topic: Self.topic, json: Self.sealed)
            _ = try await device.nextEvent {
                if case .extend(uniqueID, _) = $0 { return true }
                return false
            }
            _ = try await emulator.adminObject("/api/v1/clock", method: "POST", body: #"{"advance": "5s"}"#)
            let presentation = try await device.presentation(of: uniqueID)
            #expect(presentation.body == "(sealed)" && presentation.serviceExtension?.outcome == .timeWillExpire)
            try await device.extended(uniqueID, content: Array(#"{"body": "too late"}"#.utf8))
            let item = try await emulator.adminObject("/api/v1/notifications/\(uniqueID)")
            #expect((item["presentation"] as? [String: Any])?["body"] as? String == "(sealed)")
        }
    }

    @Test("apns-emulator device --service-extension runs the command for each alert with mutable-content")
    func command() async throws {
        try await withEmulator { emulator in
            let arguments = [
                "device", "--topic", Self.topic, "--device-port", String(emulator.devicePort), "--ca", emulator.caPath,
                "--authorize", "alert", "--prompt", "allow", "--count", "1",
                "--service-extension", #"printf '{"body": "opened"}'"#,
            ]
            let device = try BackgroundProcess(
                Subprocess.emulatorExecutable, arguments, output: emulator.directory.appending("device.log"))
            let token = try #require(try await device.waitForLines(1).first)
            let declared = await eventually {
                let app = try? await emulator.adminObject("/api/v1/devices/\(token)/app")
                return (app?["serviceExtension"] as? [String: Any])?["device"] as? Bool == true
            }
            #expect(declared, "the device declared itself the app's extension")
            let uniqueID = try await emulator.http2Client().accepted(token: token, topic: Self.topic, json: Self.sealed)
            #expect(await device.wait() == 0, "\(device.lines)")
            let line = try #require(device.lines.first { $0.contains(uniqueID) && $0.hasPrefix("{") })
            let json = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let presentation = try #require(json["presentation"] as? [String: Any])
            #expect(presentation["body"] as? String == "opened")
            #expect((presentation["serviceExtension"] as? [String: Any])?["outcome"] as? String == "modified")
        }
    }
}

import APNsTestSupport
import Foundation
import Testing

@Suite("apns-emulator device: web apps")
struct WebPushCommandTests {
    @Test("typed web-app subscribe prints the subscription; a push from pywebpush to it prints as the device's notification")
    func subscribeAndReceive() async throws {
        try await withEmulator { emulator in
            let key = emulator.directory.appending("vapid.pem")
            let serverKey = try #require(
                try await WebPushTests.client(emulator, ["keygen", key])["applicationServerKey"] as? String)
            let commands = emulator.directory.appending("web-app-commands")
            #expect(mkfifo(commands, 0o600) == 0)
            let descriptor = open(commands, O_RDWR)
            try #require(descriptor >= 0)
            defer { close(descriptor) }
            let typing = FileHandle(fileDescriptor: descriptor, closeOnDealloc: false)
            let arguments = [
                "device", "--topic", "com.example.reader", "--device-port", String(emulator.devicePort), "--ca", emulator.caPath,
                "--count", "1",
            ]
            let device = try BackgroundProcess(
                Subprocess.emulatorExecutable, arguments, output: emulator.directory.appending("web-app.log"), input: commands)
            _ = try await device.waitForLines(1)
            typing.write(
                Data(
                    #"web-app subscribe {"origin": "https://news.example", "applicationServerKey": "\#(serverKey)"}"#.utf8 + [10])
            )
            let found = await eventually { device.lines.contains { $0.hasPrefix(#"{"webApp""#) } }
            try #require(found, "no webApp line: \(device.lines)")
            let line = device.lines.first { $0.hasPrefix(#"{"webApp""#) } ?? ""
            let made = try #require(
                (try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["webApp"] as? [String: Any])
            let subscription = emulator.directory.appending("subscription.json")
            try JSONSerialization.data(withJSONObject: try #require(made["subscription"])).write(
                to: URL(fileURLWithPath: subscription))
            let app = WebPushTests.WebApp(document: made, key: key, subscription: subscription, host: "")
            #expect(try await WebPushTests.push(emulator, app, "Morning edition")["status"] as? Int == 201)
            #expect(await device.wait() == 0, "the device exits after its one notification: \(device.lines)")
            let printed = device.lines.last ?? ""
            #expect(printed.contains(#""source":"webpush""#) && printed.contains("Morning edition"), "\(printed)")
        }
    }
}

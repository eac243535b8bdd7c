import APNsCore
import APNsDevice
import APNsDeviceClient
import APNsTestSupport
import Foundation
import Testing

/// The notification service extension over real sockets: a provider pushes over HTTP/2 with TLS,
/// a device plays the phone, the admin API declares the app's extension and reads the decision.
/// Sources: Apple, UNNotificationServiceExtension (runs for alerts with `mutable-content: 1`,
/// "approximately 30 seconds"), `serviceExtensionTimeWillExpire()` (the original is shown when
/// no content is handed back in time), "Modifying content in newly delivered notifications"
/// (only for notifications displayed as an alert), UNNotificationAttachment (types and sizes).
@Suite("Service extension, end to end")
struct ServiceExtensionEndToEndTests {
    static let topic = "com.example.secret"
    static let encrypted =
        #"{"aps":{"alert":{"title":"New message","body":"(encrypted)"},"mutable-content":1},"ciphertext":"c2VlIHlvdSBhdCA3"}"#

    struct Phone {
        let device: DeviceClient
        let token: DeviceToken
        let provider: HTTP2TestClient
    }

    /// A device with an authorized app whose extension is `serviceExtension` (JSON).
    func phone(_ emulator: RunningEmulator, serviceExtension: String) async throws -> Phone {
        let device = try await emulator.device("iphone-\(UUID().uuidString.prefix(6))")
        let token = try await device.register(topic: Self.topic)
        _ = try await emulator.adminObject(
            "/api/v1/devices/\(token.hex)/app", method: "PUT",
            body:
                #"{"authorization": {"status": "authorized", "alert": true, "sound": true, "badge": true}, "serviceExtension": \#(serviceExtension)}"#
        )
        return Phone(device: device, token: token, provider: try await emulator.http2Client())
    }

    /// Pushes `json`; its unique id once the device has it.
    func push(_ json: String, _ phone: Phone) async throws -> String {
        let uniqueID = try await phone.provider.accepted(token: phone.token.hex, topic: Self.topic, json: json)
        let notification = try await phone.device.next()
        #expect(notification.uniqueID == uniqueID)
        try await phone.device.acknowledge(uniqueID)
        return uniqueID
    }

    /// A shell command for a JSON string.
    static func quoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
    }

    @Test("a command extension gets the content on standard input and what it prints is shown, the original kept beside it")
    func command() async throws {
        let directory = try TemporaryDirectory()
        let seen = directory.path + "/seen.json"
        let reply = #"{"title":"Minh","body":"see you at 7","threadIdentifier":"chat-42"}"#
        let command = "cat > \(seen); printf '%s' \(Self.quoted(reply))"
        try await withEmulator { emulator in
            let phone = try await self.phone(
                emulator, serviceExtension: #"{"command": \#(JSONValue.string(command).compactText)}"#)
            let uniqueID = try await self.push(Self.encrypted, phone)
            let heard = try await phone.device.presentation(of: uniqueID)
            #expect(heard.shown && heard.title == "Minh" && heard.body == "see you at 7" && heard.threadID == "chat-42")
            let report = try #require(heard.serviceExtension)
            #expect(report.outcome == .modified && report.kind == "command")
            #expect(report.original.title == "New message" && report.original.body == "(encrypted)")
            // What the extension was handed: the texts, and the whole payload as userInfo.
            let handed = try #require(JSONValue.parse(Array(try Data(contentsOf: URL(fileURLWithPath: seen)))))
            #expect(handed["title"]?.string == "New message" && handed["body"]?.string == "(encrypted)")
            #expect(handed["userInfo"]?["ciphertext"]?.string == "c2VlIHlvdSBhdCA3")
            #expect(handed["userInfo"]?["aps"]?["mutable-content"]?.number == 1)
            // The journal and Notification Center show the same, with the original.
            let item = try await emulator.adminObject("/api/v1/notifications/\(uniqueID)")
            let recorded = try #require(item["presentation"] as? [String: Any])
            let extensionRecord = try #require(recorded["serviceExtension"] as? [String: Any])
            #expect(recorded["body"] as? String == "see you at 7" && extensionRecord["outcome"] as? String == "modified")
            #expect((extensionRecord["original"] as? [String: Any])?["body"] as? String == "(encrypted)")
            #expect(extensionRecord["tookMs"] is Int)
            let app = try await emulator.adminObject("/api/v1/devices/\(phone.token.hex)/app")
            #expect((app["serviceExtension"] as? [String: Any])?["timeout"] as? String == "30s")
        }
    }

    @Test("an extension that crashes, or replies with something that is not content, shows the original and says why")
    func failures() async throws {
        try await withEmulator { emulator in
            let crash = try await self.phone(emulator, serviceExtension: #"{"command": "kill -SEGV $$"}"#)
            let crashed = try await crash.device.presentation(of: try await self.push(Self.encrypted, crash))
            #expect(crashed.shown && crashed.body == "(encrypted)" && crashed.serviceExtension?.outcome == .failed)
            #expect(
                crashed.serviceExtension?.reason?.contains("signal 11") == true, "\(String(describing: crashed.serviceExtension))"
            )

            let garbled = try await self.phone(emulator, serviceExtension: #"{"command": "echo decrypted"}"#)
            let bad = try await garbled.device.presentation(of: try await self.push(Self.encrypted, garbled))
            #expect(bad.body == "(encrypted)" && bad.serviceExtension?.outcome == .failed)
            #expect(bad.serviceExtension?.reason?.contains("not a JSON object") == true)

            let typo = try await self.phone(emulator, serviceExtension: #"{"command": "echo '{\"bodyy\": \"x\"}'"}"#)
            let mistyped = try await typo.device.presentation(of: try await self.push(Self.encrypted, typo))
            #expect(mistyped.serviceExtension?.reason?.contains("bodyy") == true)
        }
    }

    @Test(
        "past its time on the emulator's clock the original is shown (serviceExtensionTimeWillExpire) and the command is stopped")
    func timeout() async throws {
        let directory = try TemporaryDirectory()
        let pidFile = directory.path + "/pid"
        try await withEmulator { emulator in
            let phone = try await self.phone(
                emulator, serviceExtension: #"{"command": "sleep 600 & echo $! > \#(pidFile); wait", "timeout": "10s"}"#)
            let uniqueID = try await self.push(Self.encrypted, phone)
            let item = try await emulator.adminObject("/api/v1/notifications/\(uniqueID)")
            #expect(item["presentation"] == nil || item["presentation"] is NSNull, "presented while the extension runs: \(item)")
            let waiting = try #require(item["phoneOutcome"] as? [String: Any])
            #expect(
                waiting["state"] as? String == "waiting" && (waiting["text"] as? String)?.contains("service extension") == true)
            // The command has started its child before the clock moves.
            func written() -> Int32? {
                (try? String(contentsOfFile: pidFile, encoding: .utf8)).flatMap {
                    Int32($0.trimmingCharacters(in: .whitespacesAndNewlines))
                }
            }
            #expect(await eventually(timeout: .seconds(30)) { written() != nil })
            _ = try await emulator.adminObject("/api/v1/clock", method: "POST", body: #"{"advance": "10s"}"#)
            let heard = try await phone.device.presentation(of: uniqueID)
            #expect(heard.shown && heard.body == "(encrypted)" && heard.serviceExtension?.outcome == .timeWillExpire)
            #expect((heard.serviceExtension?.tookMs ?? 0) >= 10_000)
            let pid = try #require(written())
            #expect(
                await eventually(timeout: .seconds(30)) { kill(pid, 0) != 0 },
                "the extension's child \(pid) still runs: its process group was not stopped")
        }
    }

    @Test("a URL extension gets the content as a POST and its answer is shown; one that answers 500 shows the original")
    func url() async throws {
        let directory = try TemporaryDirectory()
        let script = directory.path + "/extension.py"
        try Self.server.write(toFile: script, atomically: true, encoding: .utf8)
        let server = try BackgroundProcess("/usr/bin/env", ["python3", script], output: directory.path + "/server.log")
        defer { kill(server.pid, SIGTERM) }
        let port = try #require(try await server.waitForLines(1).first)
        try await withEmulator { emulator in
            let phone = try await self.phone(emulator, serviceExtension: #"{"url": "http://127.0.0.1:\#(port)/decrypt"}"#)
            let heard = try await phone.device.presentation(of: try await self.push(Self.encrypted, phone))
            #expect(heard.body == "DECRYPTED: (ENCRYPTED)" && heard.serviceExtension?.outcome == .modified)
            #expect(heard.serviceExtension?.kind == "url")

            let broken = try await self.phone(emulator, serviceExtension: #"{"url": "http://127.0.0.1:\#(port)/broken"}"#)
            let failed = try await broken.device.presentation(of: try await self.push(Self.encrypted, broken))
            #expect(failed.body == "(encrypted)" && failed.serviceExtension?.outcome == .failed)
            #expect(failed.serviceExtension?.reason?.contains("answered 500") == true)
        }
    }

    /// A local extension server: `/decrypt` answers the body upper-cased; anything else 500.
    static let server = #"""
        import http.server, json, sys
        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(self):
                content = json.loads(self.rfile.read(int(self.headers["content-length"])))
                if self.path != "/decrypt":
                    self.send_response(500); self.end_headers(); self.wfile.write(b"no key"); return
                reply = json.dumps({"body": "DECRYPTED: " + content["body"].upper()}).encode()
                self.send_response(200); self.send_header("content-length", str(len(reply))); self.end_headers()
                self.wfile.write(reply)
            def log_message(self, *args): pass
        server = http.server.HTTPServer(("127.0.0.1", 0), Handler)
        print(server.server_address[1], flush=True)
        server.serve_forever()
        """#

    @Test("no extension runs without mutable-content, for a sound-only push, or when the user turned alerts off")
    func notEmployed() async throws {
        try await withEmulator { emulator in
            let phone = try await self.phone(emulator, serviceExtension: #"{"command": "echo '{\"body\": \"changed\"}'"}"#)
            let plain = try await phone.device.presentation(
                of: try await self.push(#"{"aps":{"alert":"as sent"}}"#, phone))
            #expect(plain.body == "as sent" && plain.serviceExtension == nil)
            let soundOnly = try await phone.device.presentation(
                of: try await self.push(#"{"aps":{"sound":"default","mutable-content":1}}"#, phone))
            #expect(soundOnly.serviceExtension == nil)
            _ = try await emulator.adminObject(
                "/api/v1/devices/\(phone.token.hex)/app", method: "PUT",
                body: #"{"authorization": {"status": "authorized", "alert": false, "sound": true, "badge": true}}"#)
            let alertsOff = try await phone.device.presentation(of: try await self.push(Self.encrypted, phone))
            #expect(alertsOff.serviceExtension == nil && !alertsOff.shown)
        }
    }

    @Test(
        "attachments are checked as UNNotificationAttachment checks them: a PNG is shown, a text file and a missing file are not")
    func attachments() async throws {
        let directory = try TemporaryDirectory()
        let png = directory.path + "/photo.png"
        try Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]).write(to: URL(fileURLWithPath: png))
        let text = directory.path + "/notes.txt"
        try Data("hello".utf8).write(to: URL(fileURLWithPath: text))
        let reply =
            #"{"attachments":[{"identifier":"photo","url":"file://\#(png)"},{"identifier":"notes","url":"\#(text)"},{"identifier":"gone","url":"\#(directory.path)/gone.jpg"}]}"#
        try await withEmulator { emulator in
            let phone = try await self.phone(
                emulator, serviceExtension: #"{"command": \#(JSONValue.string("printf '%s' \(Self.quoted(reply))").compactText)}"#
            )
            let heard = try await phone.device.presentation(of: try await self.push(Self.encrypted, phone))
            let attachments = try #require(heard.serviceExtension?.attachments)
            #expect(attachments.map(\.identifier) == ["photo", "notes", "gone"])
            #expect(attachments.map(\.accepted) == [true, false, false])
            #expect(attachments[0].kind == "image" && attachments[0].bytes == 8)
            #expect(attachments[1].reason?.contains("not a type iOS attaches") == true)
            #expect(attachments[2].reason?.contains("not a file") == true)
        }
    }

    @Test("a device may declare itself the extension but not a command or a URL: those only through the admin API")
    func deviceCannotSetCommand() async throws {
        try await withEmulator { emulator in
            let device = try await emulator.device("iphone-\(UUID().uuidString.prefix(6))")
            _ = try await device.register(topic: Self.topic)
            // Refused by the emulator, saying where a command is set, not any failure.
            await #expect {
                _ = try await device.configure(
                    topic: Self.topic, document: Array(#"{"serviceExtension": {"command": "id"}}"#.utf8))
            } throws: { error in
                (error as? DeviceClientError).map {
                    $0.code == .declined && $0.message.hasPrefix("400: ") && $0.message.contains("set through the admin API")
                } ?? false
            }
            let refusal = try await emulator.admin(
                "/api/v1/devices/\(try await device.register(topic: Self.topic).hex)/app", method: "PUT",
                body: #"{"serviceExtension": {"command": "id", "url": "http://127.0.0.1:1/"}}"#)
            #expect(refusal.status == 400 && refusal.text.contains("exactly one of"))
        }
    }
}

extension ServiceExtensionEndToEndTests {
    /// Apple, "Implementing communication notifications": the extension donates an
    /// `INSendMessageIntent`; with the Communication Notifications capability the notification
    /// shows its sender and can break through a Focus that allows that person.
    @Test(
        "a communication notification shows its sender, breaks through a Focus that allows the person; without the entitlement it is ordinary"
    )
    func communication() async throws {
        let reply =
            #"{"communication": {"sender": {"displayName": "Minh", "handle": "minh@example.com"}, "conversationIdentifier": "chat-42"}}"#
        try await withEmulator { emulator in
            let phone = try await self.phone(
                emulator, serviceExtension: #"{"command": \#(JSONValue.string("printf '%s' \(Self.quoted(reply))").compactText)}"#
            )
            let deviceID = try #require(
                try await emulator.adminObject("/api/v1/devices/\(phone.token.hex)/app")["deviceId"] as? String)
            _ = try await emulator.adminObject(
                "/api/v1/devices/\(deviceID)/focus", method: "PUT",
                body: #"{"active": "Sleep", "allowedPeople": ["minh@example.com"]}"#)
            let ordinary = try await phone.device.presentation(of: try await self.push(Self.encrypted, phone))
            #expect(ordinary.communication == nil && ordinary.deliveredQuietly && ordinary.heldBy == "focus")
            #expect(ordinary.notes.contains { $0.contains("Communication Notifications capability") })
            _ = try await emulator.adminObject(
                "/api/v1/devices/\(phone.token.hex)/app", method: "PUT",
                body: #"{"entitlements": ["communication-notifications"]}"#)
            let message = try await phone.device.presentation(of: try await self.push(Self.encrypted, phone))
            #expect(
                message.communication?.sender.displayName == "Minh" && message.communication?.conversationIdentifier == "chat-42")
            #expect(message.brokeThrough && !message.deliveredQuietly)
        }
    }
}

extension JSONValue {
    /// The value as compact JSON text.
    fileprivate var compactText: String { String(decoding: self.compact, as: UTF8.self) }
}

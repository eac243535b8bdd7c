import APNsTestSupport
import Foundation
import Testing

@Suite("apns-emulator device: the phone")
struct DeviceCommandPhoneTests {
    @Test("--authorize, --categories, --state: each line carries its presentation; typed commands act as the user")
    func phone() async throws {
        try await withEmulator { emulator in
            let categories = emulator.directory.appending("categories.json")
            try
                #"[{"identifier": "INVITE", "actions": [{"identifier": "ACCEPT", "title": "Accept"}, {"identifier": "REPLY", "title": "Reply", "textInput": {"buttonTitle": "Send"}}]}]"#
                .write(toFile: categories, atomically: true, encoding: .utf8)
            let commands = emulator.directory.appending("commands")
            #expect(mkfifo(commands, 0o600) == 0)
            let arguments = [
                "device", "--topic", "com.example.app", "--device-port", String(emulator.devicePort), "--ca", emulator.caPath,
                "--authorize", "alert,sound", "--prompt", "allow", "--categories", categories, "--state", "background", "--count",
                "2",
            ]
            // Opened for reading and writing, the FIFO has a writer before the device opens it to read
            // (so neither side waits for the other); closing it ends the device's input.
            let descriptor = open(commands, O_RDWR)
            try #require(descriptor >= 0)
            let typing = FileHandle(fileDescriptor: descriptor, closeOnDealloc: false)
            let device = try BackgroundProcess(
                Subprocess.emulatorExecutable, arguments, output: emulator.directory.appending("phone.log"), input: commands)
            let token = try #require(try await device.waitForLines(1).first)
            // The device sends its settings after it prints its token, as an app configures itself
            // after registering: a push before that would find no categories.
            let configured = await eventually {
                let app = try? await emulator.adminObject("/api/v1/devices/\(token)/app")
                return (app?["categories"] as? [[String: Any]])?.isEmpty == false && app?["appState"] as? String == "background"
            }
            #expect(configured, "the device's settings reached the phone")

            let provider = try await emulator.http2Client()
            let first = try await provider.push(
                token: token, headers: [("apns-topic", "com.example.app")],
                json: #"{"aps":{"alert":"Lunch?","sound":"default","category":"INVITE"}}"#)
            let uniqueID = try #require(first.header("apns-unique-id"))
            let printed = try await device.waitForLines(3)
            let line = try #require(printed.first { $0.contains(uniqueID) && $0.hasPrefix("{") })
            let json = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let presentation = try #require(json["presentation"] as? [String: Any])
            #expect(presentation["shown"] as? Bool == true && presentation["sound"] as? String == "default")
            #expect((presentation["actions"] as? [[String: Any]])?.map { $0["identifier"] as? String } == ["ACCEPT", "REPLY"])

            typing.write(Data("text \(uniqueID.prefix(8)) REPLY \"On my way\"\n".utf8))
            let answered = await eventually { device.lines.contains { $0.hasPrefix(#"{"response""#) } }
            #expect(answered, "\(device.lines)")
            let journal = try await emulator.adminObject("/api/v1/notifications/\(uniqueID)")
            #expect((journal["response"] as? [String: Any])?["text"] as? String == "On my way")

            #expect(
                try await provider.push(
                    token: token, headers: [("apns-topic", "com.example.app")], json: #"{"aps":{"alert":"2"}}"#
                ).status == 200)
            #expect(await device.wait() == 0)
            close(descriptor)
            let app = try await emulator.adminObject("/api/v1/devices/\(token)/app")
            #expect((app["authorization"] as? [String: Any])?["status"] as? String == "authorized")
        }
    }

    /// The first line of `device`'s output after `count` that starts with `prefix`, as JSON.
    private static func jsonLine(of device: BackgroundProcess, _ prefix: String, after count: Int) async throws -> [String: Any] {
        var found: String?
        _ = await eventually {
            found = device.lines.dropFirst(count).first { $0.hasPrefix(prefix) }
            return found != nil
        }
        let line = try #require(found, "no \(prefix) line in \(device.lines)")
        return try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    }

    /// The hour, in `zone`, at which the pending request `wake` fires next.
    private static func wakeHour(in zone: String, _ pending: [String: Any]) throws -> Int? {
        let items = try #require(pending["pending"] as? [[String: Any]])
        let next = try #require((items.first { $0["identifier"] as? String == "wake" })?["nextFireAt"] as? Int)
        let calendar = Calendar(identifier: .gregorian)
        return calendar.dateComponents(
            in: try #require(TimeZone(identifier: zone)), from: Date(timeIntervalSince1970: Double(next) / 1000)
        ).hour
    }

    @Test("--schedule and --time-zone at launch; typed schedule, pending, timezone and cancel; what fires prints as local")
    func localNotifications() async throws {
        try await withEmulator { emulator in
            let requests = emulator.directory.appending("requests.json")
            try #"""
            [{"identifier": "standup", "content": {"title": "Stand up", "body": "Daily"}, "trigger": {"type": "timeInterval", "seconds": 600}},
             {"identifier": "wake", "content": {"title": "Wake"}, "trigger": {"type": "calendar", "dateComponents": {"hour": 7, "minute": 0}, "repeats": true}}]
            """#.write(toFile: requests, atomically: true, encoding: .utf8)
            let commands = emulator.directory.appending("local-commands")
            #expect(mkfifo(commands, 0o600) == 0)
            let descriptor = open(commands, O_RDWR)
            try #require(descriptor >= 0)
            defer { close(descriptor) }
            let typing = FileHandle(fileDescriptor: descriptor, closeOnDealloc: false)
            let arguments = [
                "device", "--topic", "com.example.planner", "--device-port", String(emulator.devicePort), "--ca", emulator.caPath,
                "--authorize", "alert", "--prompt", "allow", "--time-zone", "Europe/Paris", "--schedule", requests, "--count",
                "2",
            ]
            let device = try BackgroundProcess(
                Subprocess.emulatorExecutable, arguments, output: emulator.directory.appending("planner.log"), input: commands)
            let scheduledLines = await eventually { device.lines.filter { $0.hasPrefix(#"{"scheduled""#) }.count == 2 }
            #expect(scheduledLines, "\(device.lines)")
            let token = try #require(device.lines.first)

            typing.write(Data("pending\n".utf8))
            let paris = try await Self.jsonLine(of: device, #"{"pending""#, after: 0)
            #expect(try Self.wakeHour(in: "Europe/Paris", paris) == 7)

            // The person flies to Tokyo: the floating 07:00 follows the phone.
            typing.write(Data("timezone Asia/Tokyo\n".utf8))
            let seen = device.lines.count
            typing.write(Data("pending\n".utf8))
            let tokyo = try await Self.jsonLine(of: device, #"{"pending""#, after: seen)
            #expect(try Self.wakeHour(in: "Asia/Tokyo", tokyo) == 7)
            #expect(try await emulator.adminObject("/api/v1/devices/\(token)/app")["timeZone"] as? String == "Asia/Tokyo")

            try await self.cancelAndFire(device, typing, emulator, token: token)
        }
    }

    /// Cancelling, scheduling from the typed command, and what fires when the clock moves.
    private func cancelAndFire(
        _ device: BackgroundProcess, _ typing: FileHandle, _ emulator: RunningEmulator, token: String
    ) async throws {
        typing.write(Data("cancel wake\n".utf8))
        #expect(try await Self.jsonLine(of: device, #"{"cancelled""#, after: 0)["cancelled"] as? Int == 1)
        typing.write(Data("cancel nope\n".utf8))
        #expect(
            await eventually { device.lines.contains { $0.hasPrefix("cancel nope:") && $0.contains("404") } },
            "\(device.lines)")
        typing.write(
            Data(
                #"schedule {"identifier": "soon", "content": {"title": "Soon"}, "trigger": {"type": "timeInterval", "seconds": 60}}"#
                    .utf8 + Data("\n".utf8)))
        #expect(
            await eventually { device.lines.contains { $0.hasPrefix(#"{"scheduled""#) && $0.contains("soon") } },
            "\(device.lines)")
        #expect(try await emulator.adminObject("/api/v1/devices/\(token)/pending")["total"] as? Int == 2)

        _ = try await emulator.adminObject("/api/v1/clock", method: "POST", body: #"{"advance": "11m"}"#)
        #expect(await device.wait() == 0)
        let fired = try device.lines.filter { $0.contains(#""source":"local""#) }.map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        #expect(
            fired.compactMap { ($0["presentation"] as? [String: Any])?["title"] as? String }.sorted() == [
                "Soon", "Stand up",
            ], "\(device.lines)")
    }

    @Test("device: power lowPowerMode=true holds a priority-5 push until power lowPowerMode=false; a wrong word is named")
    func devicePower() async throws {
        try await withEmulator { emulator in
            let commands = emulator.directory.appending("power-commands")
            #expect(mkfifo(commands, 0o600) == 0)
            let descriptor = open(commands, O_RDWR)
            try #require(descriptor >= 0)
            defer { close(descriptor) }
            let typing = FileHandle(fileDescriptor: descriptor, closeOnDealloc: false)
            let arguments = [
                "device", "--topic", "com.example.power", "--device-port", String(emulator.devicePort), "--ca", emulator.caPath,
                "--count", "1",
            ]
            let device = try BackgroundProcess(
                Subprocess.emulatorExecutable, arguments, output: emulator.directory.appending("power.log"), input: commands)
            #expect(await eventually { !device.lines.isEmpty })
            let token = try #require(device.lines.first)

            typing.write(Data("power lowPowerMode=true\n".utf8))
            #expect(
                await eventually { device.lines.contains { $0.hasPrefix(#"{"power""#) && $0.contains(#""lowPowerMode":true"#) } },
                "\(device.lines)")
            #expect(try await emulator.adminObject("/api/v1/devices/\(token)/power")["lowPowerMode"] as? Bool == true)
            typing.write(Data("power asleep=true\n".utf8))
            #expect(
                await eventually {
                    device.lines.contains { $0.hasPrefix("power asleep=true:") && $0.contains("lowPowerMode=BOOL") }
                }, "\(device.lines)")

            let provider = try await emulator.http2Client()
            let pushed = try await provider.push(
                token: token, headers: [("apns-topic", "com.example.power"), ("apns-priority", "5")],
                json: #"{"aps":{"alert":"later"}}"#)
            #expect(pushed.status == 200)
            let id = try #require(pushed.header("apns-unique-id"))
            #expect(
                await eventually {
                    (try? await emulator.adminObject("/api/v1/notifications/\(id)/delivery-log")["events"] as? [[String: Any]])?
                        .count == 2
                })
            #expect(!device.lines.contains { $0.contains(id) })
            typing.write(Data("power lowPowerMode=false\n".utf8))
            #expect(await device.wait() == 0)
            #expect(device.lines.contains { $0.contains(id) }, "\(device.lines)")
        }
    }
}

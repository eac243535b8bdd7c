import APNsTestSupport
import Foundation
import Testing

@Suite("apns-emulator device: Live Activities")
struct LiveActivityCommandTests {
    static func json(_ line: String) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any] ?? [:]
    }

    @Test("--activity-types: the push-to-start token prints; typed start, activities and end; a pushed update prints as a change")
    func activities() async throws {
        try await withEmulator { emulator in
            let types = emulator.directory.appending("types.json")
            try LiveActivityTests.types.write(toFile: types, atomically: true, encoding: .utf8)
            let commands = emulator.directory.appending("activity-commands")
            #expect(mkfifo(commands, 0o600) == 0)
            let descriptor = open(commands, O_RDWR)
            try #require(descriptor >= 0)
            let typing = FileHandle(fileDescriptor: descriptor, closeOnDealloc: false)
            let arguments = [
                "device", "--topic", LiveActivityTests.bundle, "--device-port", String(emulator.devicePort), "--ca",
                emulator.caPath,
                "--activity-types", types, "--count", "1",
            ]
            let device = try BackgroundProcess(
                Subprocess.emulatorExecutable, arguments, output: emulator.directory.appending("activity.log"), input: commands)
            let token = try #require(try await device.waitForLines(1).first)
            func line(_ prefix: String, _ matching: @escaping (String) -> Bool = { _ in true }) async throws -> [String: Any] {
                let found = await eventually { device.lines.contains { $0.hasPrefix(prefix) && matching($0) } }
                try #require(found, "no \(prefix) line: \(device.lines)")
                return Self.json(device.lines.last { $0.hasPrefix(prefix) && matching($0) } ?? "")
            }
            let pushToStart = try await line(#"{"activityToken""#) { $0.contains("pushToStart") }
            #expect(
                (pushToStart["activityToken"] as? [String: Any])?["token"] as? String
                    == (try await emulator.adminObject("/api/v1/devices/\(token)/app"))["pushToStartToken"] as? String)

            typing.write(
                Data(
                    #"start {"attributes-type": "Delivery", "attributes": {"order": 5}, "content-state": {"status": "new"}, "pushType": "token"}"#
                        .utf8 + [10]))
            let issued = try #require(
                (try await line(#"{"activityToken""#) { $0.contains(#""kind":"update""#) })["activityToken"] as? [String: Any])
            let updateToken = try #require(issued["token"] as? String)
            let id = try #require(issued["activityId"] as? String)
            let provider = try await emulator.http2Client()
            #expect(
                try await LiveActivityTests.send(
                    provider, updateToken, LiveActivityTests.update(LiveActivityTests.now, "cooking")
                ).status == 200)
            let updated = try await line(#"{"activity""#) { $0.contains(#""change":"updated""#) }
            #expect(
                ((updated["activity"] as? [String: Any])?["activity"] as? [String: Any])?["contentState"] as? [String: String]
                    == ["status": "cooking"])

            typing.write(Data("activities\n".utf8))
            #expect(((try await line(#"{"activities""#))["activities"] as? [[String: Any]])?.first?["id"] as? String == id)
            typing.write(Data("end \(id.prefix(8)) {\"dismissalPolicy\": \"immediate\"}\n".utf8))
            _ = try await line(#"{"activity""#) { $0.contains(#""change":"dismissed""#) }
            #expect(try await emulator.adminObject("/api/v1/activities/\(id)")["activityState"] as? String == "dismissed")

            try await Self.scheduled(emulator, token: token, typing: typing, line: line)

            #expect(try await provider.push(token: token, topic: LiveActivityTests.bundle).status == 200)
            #expect(await device.wait() == 0)
            close(descriptor)
        }
    }
    /// iOS 26: a typed scheduled start (issue 41) prints as a change to pending, with its start.
    static func scheduled(
        _ emulator: RunningEmulator, token: String, typing: FileHandle,
        line: (String, @escaping (String) -> Bool) async throws -> [String: Any]
    ) async throws {
        _ = try await emulator.adminObject("/api/v1/devices/\(token)/app", method: "PUT", body: #"{"iosVersion": "26.0"}"#)
        let start = Int64(Date().timeIntervalSince1970) + 3600
        typing.write(
            Data(
                #"start {"attributes-type": "Delivery", "attributes": {"order": 6}, "content-state": {"status": "new"}, "start": \#(start), "alertConfiguration": {"title": "Order 6", "body": "Cooking soon"}}"#
                    .utf8 + [10]))
        let scheduled = try await line(#"{"activity""#) { $0.contains(#""change":"scheduled""#) }
        let pending = try #require((scheduled["activity"] as? [String: Any])?["activity"] as? [String: Any])
        #expect(pending["activityState"] as? String == "pending" && pending["scheduledStart"] is String, "\(pending)")
    }
}

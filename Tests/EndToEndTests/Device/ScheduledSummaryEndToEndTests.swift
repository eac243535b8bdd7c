import APNsCore
import APNsDevice
import APNsDeviceClient
import APNsTestSupport
import Foundation
import Testing

/// The Scheduled Summary over real sockets. Sources: Apple Support, "Schedule a notification
/// summary on iPhone" (apps in the summary wait for its times); Apple, "UNNotificationInterruptionLevel"
/// (time-sensitive notifications break through the summary) and `relevanceScore` ("the system uses
/// the score to determine which notification to feature in the summary").
@Suite("Scheduled Summary, end to end")
struct ScheduledSummaryEndToEndTests {
    static let topic = "com.example.news"

    @Test(
        "an app in the summary has its alerts held for the next summary time, the most relevant first; time-sensitive ones break through"
    )
    func summary() async throws {
        try await withEmulator { emulator in
            let device = try await emulator.device("iphone-\(UUID().uuidString.prefix(6))")
            let token = try await device.register(topic: Self.topic)
            let app = try await emulator.adminObject(
                "/api/v1/devices/\(token.hex)/app", method: "PUT",
                body: #"""
                    {"authorization": {"status": "authorized", "alert": true, "sound": true, "scheduledDelivery": true},
                     "entitlements": ["time-sensitive"], "summaryTimes": ["09:00", "21:30"], "timeZone": "UTC"}
                    """#)
            #expect(app["summaryTimes"] as? [String] == ["09:00", "21:30"])
            let provider = try await emulator.http2Client()
            func push(_ aps: String) async throws -> (String, Presentation) {
                let uniqueID = try await provider.accepted(token: token.hex, topic: Self.topic, json: #"{"aps":\#(aps)}"#)
                #expect(try await device.next().uniqueID == uniqueID)
                try await device.acknowledge(uniqueID)
                return (uniqueID, try await device.presentation(of: uniqueID))
            }
            let (low, lowShown) = try await push(#"{"alert":"Weather","sound":"default","relevance-score":0.2}"#)
            let (high, _) = try await push(#"{"alert":"Big story","relevance-score":0.9}"#)
            let (plain, _) = try await push(#"{"alert":"Digest"}"#)
            let (_, urgent) = try await push(#"{"alert":"Storm warning","interruption-level":"time-sensitive"}"#)
            #expect(lowShown.deliveredQuietly && lowShown.heldBy == "summary" && lowShown.sound == nil)
            #expect(lowShown.relevanceScore == 0.2)
            let summaryAt = try #require(lowShown.summaryAt)
            // The emulator's clock has not moved: it is the real time.
            let now = Int64(Date().timeIntervalSince1970 * 1000)
            // 09:00 to 21:30 is the longer gap: 12.5 hours.
            #expect(summaryAt > now - 60_000 && summaryAt - now <= 45_000_000 + 60_000, "the next of 09:00 and 21:30 UTC")
            let minutes = (summaryAt / 60_000) % (24 * 60)
            #expect(minutes == 9 * 60 || minutes == 21 * 60 + 30)
            #expect(!urgent.deliveredQuietly && urgent.summaryAt == nil && urgent.style == .banner)
            let delivered = try await emulator.adminObject("/api/v1/devices/\(token.hex)/delivered")
            let summaries = try #require(delivered["summaries"] as? [[String: Any]])
            #expect(summaries.count == 1 && summaries.first?["items"] as? [String] == [high, low, plain], "\(summaries)")
            let bad = try await emulator.admin(
                "/api/v1/devices/\(token.hex)/app", method: "PUT", body: #"{"summaryTimes": ["25:00"]}"#)
            #expect(bad.status == 400 && bad.text.contains("summaryTimes"))
        }
    }

    @Test(
        "at its time on the emulator's clock the summary is presented, once, also after a restart; the journal says so and a later push waits for the next one"
    )
    func presentedAtItsTime() async throws {
        let directory = try TemporaryDirectory()
        let first = try await RunningEmulator.start(directory: directory)
        let deviceID = "iphone-\(UUID().uuidString.prefix(6))"
        let device = try await first.device(deviceID)
        let token = try await device.register(topic: Self.topic)
        _ = try await first.adminObject(
            "/api/v1/devices/\(token.hex)/app", method: "PUT",
            body:
                #"{"authorization": {"status": "authorized", "alert": true, "scheduledDelivery": true}, "summaryTimes": ["09:00", "21:30"], "timeZone": "UTC"}"#
        )
        let provider = try await first.http2Client()
        var ids: [String] = []
        var times: [Int64?] = []
        for (text, score) in [("Weather", 0.1), ("Big story", 0.8)] {
            let uniqueID = try await provider.accepted(
                token: token.hex, topic: Self.topic, json: #"{"aps":{"alert":"\#(text)","relevance-score":\#(score)}}"#)
            #expect(try await device.next().uniqueID == uniqueID)
            try await device.acknowledge(uniqueID)
            ids.append(uniqueID)
            times.append(try await device.presentation(of: uniqueID).summaryAt)
        }
        let summaryAt = try #require(times.first ?? nil)
        #expect(times == [summaryAt, summaryAt])
        try await device.close()
        try await first.stop()

        // The summary waits in the store: the restarted phone still presents it at its time.
        let second = try await RunningEmulator.start(directory: directory)
        func summaries() async throws -> [[String: Any]] {
            let delivered = try await second.adminObject("/api/v1/devices/\(token.hex)/delivered")
            return try #require(delivered["summaries"] as? [[String: Any]])
        }
        #expect(try await summaries().map { $0["presented"] as? Bool } == [false])
        let at = Date(timeIntervalSince1970: Double(summaryAt + 1000) / 1000)
        _ = try await second.adminObject(
            "/api/v1/clock", method: "POST", body: #"{"set": "\#(ISO8601DateFormatter().string(from: at))"}"#)
        // The clock's answer comes after the summary was presented.
        let presented = try await summaries()
        #expect(presented.count == 1 && presented.first?["presented"] as? Bool == true, "\(presented)")
        #expect(presented.first?["items"] as? [String] == [ids[1], ids[0]], "the most relevant first")
        for uniqueID in ids { try await Self.expectPresentedInSummary(uniqueID, second) }

        // A push after it waits for the next summary, 12.5 hours on (21:30 after 09:00, or 09:00 after 21:30).
        let device2 = try await second.device(deviceID)
        #expect(try await device2.resume([token]).first?.status == .resumed)
        let provider2 = try await second.http2Client()
        let later = try await provider2.accepted(token: token.hex, topic: Self.topic, json: #"{"aps":{"alert":"Later"}}"#)
        #expect(try await device2.next().uniqueID == later)
        let next = try #require(try await device2.presentation(of: later).summaryAt)
        #expect(next == summaryAt + 45_000_000 || next == summaryAt + 41_400_000, "\(next - summaryAt) ms after the first")
        let both = try await summaries()
        #expect(both.map { $0["presented"] as? Bool } == [true, false] && both.last?["items"] as? [String] == [later])
        try await device2.close()
        try await second.stop()
        try? directory.remove()
    }

    /// The notification's presentation and its journal entry say its summary was presented.
    static func expectPresentedInSummary(_ uniqueID: String, _ emulator: RunningEmulator) async throws {
        let entry = try await emulator.adminObject("/api/v1/notifications/\(uniqueID)")
        let presentation = try #require(entry["presentation"] as? [String: Any])
        #expect(presentation["summaryPresented"] as? Bool == true && presentation["heldBy"] as? String == "summary")
        let log = try await emulator.adminObject("/api/v1/notifications/\(uniqueID)/delivery-log")
        let steps = try #require(log["events"] as? [[String: Any]])
        #expect(
            steps.contains { ($0["detail"] as? String)?.hasPrefix("presented in the Scheduled Summary of ") == true }, "\(steps)")
    }

    /// Apple, UNNotificationSettings `directMessagesSetting`, `timeSensitiveSetting` and
    /// UNNotificationSetting; JPush, "iOS 通知权限类别说明" (Direct Messages and Time Sensitive
    /// switches exist for apps with those capabilities and deliver those notifications at once,
    /// outside the Scheduled Summary).
    @Test(
        "notificationSettings reports each setting as iOS does (notSupported without the capability); Direct Messages off holds communication notifications for the summary"
    )
    func directMessages() async throws {
        let reply = #"{"communication": {"sender": {"displayName": "Minh", "handle": "minh@example.com"}}}"#
        let command = "printf '%s' '\(reply)'"
        try await withEmulator { emulator in
            let device = try await emulator.device("iphone-\(UUID().uuidString.prefix(6))")
            let token = try await device.register(topic: Self.topic)
            let path = "/api/v1/devices/\(token.hex)/app"
            func settings(_ body: String) async throws -> [String: String] {
                let app = try await emulator.adminObject(path, method: "PUT", body: body)
                return try #require(app["notificationSettings"] as? [String: String], "\(app)")
            }
            let authorization = #""status": "authorized", "alert": true, "scheduledDelivery": true"#
            let plain = try await settings(
                #"{"authorization": {\#(authorization)}, "serviceExtension": {"command": "\#(command.replacingOccurrences(of: "\"", with: "\\\""))"}}"#
            )
            #expect(plain["authorizationStatus"] == "authorized" && plain["alertSetting"] == "enabled")
            #expect(plain["soundSetting"] == "disabled" && plain["scheduledDeliverySetting"] == "enabled")
            #expect(plain["directMessagesSetting"] == "notSupported" && plain["timeSensitiveSetting"] == "notSupported")
            #expect(plain["criticalAlertSetting"] == "notSupported")
            let entitled = try await settings(#"{"entitlements": ["communication-notifications", "time-sensitive"]}"#)
            #expect(entitled["directMessagesSetting"] == "enabled" && entitled["timeSensitiveSetting"] == "enabled")

            let provider = try await emulator.http2Client()
            func push() async throws -> Presentation {
                let uniqueID = try await provider.accepted(
                    token: token.hex, topic: Self.topic, json: #"{"aps":{"alert":"New message","mutable-content":1}}"#)
                #expect(try await device.next().uniqueID == uniqueID)
                try await device.acknowledge(uniqueID)
                return try await device.presentation(of: uniqueID)
            }
            let direct = try await push()
            #expect(direct.communication?.sender.displayName == "Minh" && !direct.deliveredQuietly && direct.summaryAt == nil)
            let off = try await settings(#"{"authorization": {\#(authorization), "directMessages": false}}"#)
            #expect(off["directMessagesSetting"] == "disabled")
            let held = try await push()
            #expect(held.communication != nil && held.heldBy == "summary" && held.summaryAt != nil)
            #expect(held.notes.contains { $0.contains("Direct Messages off") }, "\(held.notes)")
            // The device protocol's app document carries the same switches.
            let app = try await device.configure(topic: Self.topic, document: Array("{}".utf8))
            #expect(NotificationSettings(app).directMessagesSetting == .disabled)
        }
    }
}

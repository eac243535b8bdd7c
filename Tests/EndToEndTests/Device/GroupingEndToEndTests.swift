import APNsCore
import APNsDevice
import APNsDeviceClient
import APNsTestSupport
import Foundation
import Testing

/// Notification Center's stacks and the content a tap brings forward. Sources: Apple,
/// `UNNotificationContent.threadIdentifier` ("the system uses this identifier to group
/// notifications") and `targetContentIdentifier` ("the value your app uses to determine which
/// scene to display to handle the notification"); the payload keys `thread-id` and
/// `target-content-id` in "Generating a remote notification".
@Suite("Grouping and target content, end to end")
struct GroupingEndToEndTests {
    static let topic = "com.example.threads"

    @Test("Notification Center stacks by thread-id, newest stack first; a tap hands the app the target-content-id")
    func threads() async throws {
        try await withEmulator { emulator in
            let device = try await emulator.device("iphone-\(UUID().uuidString.prefix(6))")
            let token = try await device.register(topic: Self.topic)
            _ = try await emulator.adminObject(
                "/api/v1/devices/\(token.hex)/app", method: "PUT",
                body: #"{"authorization": {"status": "authorized", "alert": true, "sound": true, "badge": true}}"#)
            let provider = try await emulator.http2Client()
            var ids: [String] = []
            for (body, thread) in [("Ana: hi", "chat-ana"), ("Bo: yo", "chat-bo"), ("Ana: there?", "chat-ana"), ("Update", nil)] {
                let threadKey = thread.map { #","thread-id":"\#($0)""# } ?? ""
                let uniqueID = try await provider.accepted(
                    token: token.hex, topic: Self.topic,
                    json: #"{"aps":{"alert":"\#(body)"\#(threadKey),"target-content-id":"window-\#(thread ?? "main")"}}"#)
                #expect(try await device.next().uniqueID == uniqueID)
                try await device.acknowledge(uniqueID)
                let presentation = try await device.presentation(of: uniqueID)
                #expect(presentation.targetContentID == "window-\(thread ?? "main")")
                ids.append(uniqueID)
            }
            let delivered = try await emulator.adminObject("/api/v1/devices/\(token.hex)/delivered")
            let threads = try #require(delivered["threads"] as? [[String: Any]])
            #expect(threads.map { $0["threadId"] as? String } == [nil, "chat-ana", "chat-bo"])
            #expect(threads.map { $0["count"] as? Int } == [1, 2, 1])
            #expect(threads.map { $0["newest"] as? String } == [ids[3], ids[2], ids[1]])
            let tapped = try await emulator.adminObject(
                "/api/v1/notifications/\(ids[2])/respond", method: "POST", body: #"{"action": "default"}"#)
            #expect(tapped["targetContentId"] as? String == "window-chat-ana", "\(tapped)")
            let dismissed = try await emulator.adminObject(
                "/api/v1/notifications/\(ids[1])/respond", method: "POST", body: #"{"action": "dismiss"}"#)
            #expect(dismissed["targetContentId"] == nil || dismissed["targetContentId"] is NSNull)
        }
    }

    /// Apple, WWDC18 "What's New in User Notifications" (a stack's summary: "N more
    /// notifications", "from" the notifications' summary arguments, each counting its
    /// summary-arg-count) and `UNNotificationContent.summaryArgument` (iOS 12.0 to 15.0).
    @Test(
        "a stack's summary counts the others: on iOS 14 from their summary-arg and summary-arg-count; iOS 15 and later ignore them, and say so"
    )
    func stackSummary() async throws {
        try await withEmulator { emulator in
            let device = try await emulator.device("iphone-\(UUID().uuidString.prefix(6))")
            let token = try await device.register(topic: Self.topic)
            let path = "/api/v1/devices/\(token.hex)"
            _ = try await emulator.adminObject(
                "\(path)/app", method: "PUT",
                body: #"{"iosVersion": "14.8", "authorization": {"status": "authorized", "alert": true}}"#)
            let provider = try await emulator.http2Client()
            func push(_ aps: String) async throws -> Presentation {
                let uniqueID = try await provider.accepted(token: token.hex, topic: Self.topic, json: #"{"aps":\#(aps)}"#)
                #expect(try await device.next().uniqueID == uniqueID)
                try await device.acknowledge(uniqueID)
                return try await device.presentation(of: uniqueID)
            }
            func summaries() async throws -> [String?] {
                let threads = try #require(try await emulator.adminObject("\(path)/delivered")["threads"] as? [[String: Any]])
                return threads.map { $0["summary"] as? String }
            }
            let first = try await push(
                #"{"alert":"Ana: 3 photos","thread-id":"family","summary-arg":"Ana","summary-arg-count":3}"#)
            #expect(first.summaryArgument == "Ana" && first.summaryArgumentCount == 3)
            #expect(try await summaries() == [nil], "a stack of one has no summary")
            _ = try await push(#"{"alert":"Ben: hi","thread-id":"family","summary-arg":"Ben"}"#)
            _ = try await push(#"{"alert":"Ana: and one more","thread-id":"family","summary-arg":"Ana"}"#)
            #expect(try await summaries() == ["4 more notifications from Ben and Ana"])

            _ = try await emulator.adminObject("\(path)/delivered", method: "DELETE")
            _ = try await emulator.adminObject("\(path)/app", method: "PUT", body: #"{"iosVersion": "18.0"}"#)
            let modern = try await push(#"{"alert":"Ana: hello","thread-id":"family","summary-arg":"Ana","summary-arg-count":5}"#)
            #expect(modern.summaryArgument == nil && modern.notes.contains { $0.hasPrefix("summary-arg is ignored") })
            _ = try await push(#"{"alert":"Ana: again","thread-id":"family","summary-arg":"Ana","summary-arg-count":5}"#)
            #expect(try await summaries() == ["1 more notification"])
        }
    }
}

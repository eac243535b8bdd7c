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
            #expect(summaryAt > now - 60_000 && summaryAt - now <= 12 * 3_600_000 + 60_000, "the next of 09:00 and 21:30 UTC")
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
}

import APNsCore
import APNsDeviceClient
import APNsTestSupport
import Foundation
import Testing

/// Broadcasts are kept per app as the broadcast itself, not the app rewritten (issue 38): a
/// restart reads each app's last written settings and applies its broadcasts since, in order.
@Suite("Broadcast push across a restart")
struct BroadcastRestartTests {
    @Test(
        "after a restart every subscribed activity shows what the broadcasts made of it: content state and history, below and past the point the app is written whole (issue 38)",
        arguments: [3, 37])
    func restart(_ broadcasts: Int) async throws {
        let directory = try TemporaryDirectory()
        var emulator = try await RunningEmulator.start(directory: directory)
        let client = try await emulator.http2Client()
        let id = try await BroadcastTests.channel(client)
        let first = try await BroadcastTests.subscriber(emulator, channel: id)
        let second = try await BroadcastTests.subscriber(emulator, channel: id)
        let now = LiveActivityTests.now
        // Priority 5 draws from no update budget (Apple's "Starting and updating Live Activities
        // with ActivityKit push notifications"), so every one of them is applied.
        for round in 0..<broadcasts {
            let sent = try await BroadcastTests.publish(
                client, id, LiveActivityTests.update(now + 10 + round, "round \(round)"), expiration: "\(now + 3600)",
                priority: "5")
            #expect(sent.status == 200)
        }
        func seen(_ emulator: RunningEmulator, _ activity: String) async throws -> (status: String?, history: [String]) {
            let object = try await emulator.adminObject("/api/v1/activities/\(activity)")
            let history = (object["history"] as? [[String: Any]] ?? []).map {
                "\($0["event"] ?? "") \($0["outcome"] ?? "") \($0["uniqueId"] ?? "")"
            }
            return ((object["contentState"] as? [String: Any])?["status"] as? String, history)
        }
        let before = [try await seen(emulator, first.activity), try await seen(emulator, second.activity)]
        #expect(before.allSatisfy { $0.status == "round \(broadcasts - 1)" }, "\(before)")
        #expect(
            before.allSatisfy { $0.history.count == broadcasts + 1 },
            "the start and each broadcast: \(before.map(\.history.count))")
        try await emulator.stop()

        emulator = try await RunningEmulator.start(directory: directory)
        let after = [try await seen(emulator, first.activity), try await seen(emulator, second.activity)]
        #expect(after.map(\.status) == before.map(\.status))
        #expect(after.map(\.history) == before.map(\.history))
        try await emulator.stop()
    }
}

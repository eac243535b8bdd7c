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

    @Test(
        "the journal keeps channel requests and broadcasts across a restart, each as it was answered, a broadcast with every activity's outcome (issue 53)"
    )
    func journalKeepsBroadcasts() async throws {
        let directory = try TemporaryDirectory()
        var emulator = try await RunningEmulator.start(directory: directory)
        let client = try await emulator.http2Client()
        let id = try await BroadcastTests.channel(client)
        _ = try await BroadcastTests.subscriber(emulator, channel: id)
        _ = try await BroadcastTests.subscriber(emulator, channel: id)
        let now = LiveActivityTests.now
        let sent = try await BroadcastTests.publish(
            client, id, LiveActivityTests.update(now + 10, "kept"), expiration: "\(now + 3600)", priority: "5")
        #expect(sent.status == 200)
        // A channel no one created: refused 400 ChannelNotRegistered, and kept as such.
        let refused = try await BroadcastTests.publish(
            client, "dGhpcyBpcyBub3QgYSBjaGFubmVs", LiveActivityTests.update(now + 11, "lost"))
        #expect(refused.status == 400)

        func channelEntries(_ emulator: RunningEmulator) async throws -> [String] {
            let items = try await emulator.adminObject("/api/v1/notifications?limit=100")["items"] as? [[String: Any]] ?? []
            return items.filter { $0["operation"] is String }.map {
                "\($0["id"] ?? "") \($0["operation"] ?? "") \($0["httpStatus"] ?? "") \($0["reason"] ?? "") \($0["fanOut"] ?? "")"
            }
        }
        func outcomes(_ emulator: RunningEmulator, _ entries: [String]) async throws -> [Int] {
            var counts: [Int] = []
            for entry in entries {
                let read = try await emulator.adminObject("/api/v1/notifications/\(entry.prefix { $0 != " " })")
                counts.append((read["outcomes"] as? [[String: Any]])?.count ?? -1)
            }
            return counts
        }
        let before = try await channelEntries(emulator)
        #expect(before.count == 3, "the channel's creation, the broadcast and the refusal: \(before)")
        #expect(before.contains { $0.contains(" publish 200 ") && $0.hasSuffix(" 2") }, "\(before)")
        #expect(before.contains { $0.contains(" 400 ChannelNotRegistered") }, "\(before)")
        let outcomesBefore = try await outcomes(emulator, before)
        #expect(outcomesBefore.contains(2), "\(outcomesBefore)")
        try await emulator.stop()

        emulator = try await RunningEmulator.start(directory: directory)
        #expect(try await channelEntries(emulator) == before)
        #expect(try await outcomes(emulator, before) == outcomesBefore)
        try await emulator.stop()
    }
}

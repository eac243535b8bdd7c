import APNsTestSupport
import Foundation
import NIOHTTP2
import Testing

/// What survives: restarts, graceful shutdown, and a full store.
@Suite("Durability")
struct DurabilityTests {
    static let token = String(repeating: "c3", count: 32)

    @Test("every notification that got a 200 is there after a restart on the same data directory")
    func restartKeepsEverything() async throws {
        let directory = try TemporaryDirectory()
        let first = try await RunningEmulator.start(directory: directory) { $0.storagePolicy = .all }
        let client = try await first.http2Client()
        var ids: [String] = []
        for i in 0..<50 {
            let response = try await client.push(token: Self.token, json: #"{"i":\#(i)}"#)
            #expect(response.status == 200)
            ids.append(try #require(response.header("apns-unique-id")))
        }
        try await first.stop()

        let second = try await RunningEmulator.start(directory: directory) { $0.storagePolicy = .all }
        let items = try await second.queued(Self.token)
        #expect(items.compactMap { $0["uniqueId"] as? String } == ids)
        // New notifications keep queueing after the old ones.
        let client2 = try await second.http2Client()
        #expect(try await client2.push(token: Self.token, json: #"{"i":50}"#).status == 200)
        let after = try await second.queued(Self.token)
        #expect(after.count == 51)
        #expect((after.last?["payload"] as? [String: Any])?["i"] as? Int == 50)
        try await second.stop()
    }

    @Test("graceful shutdown sends GOAWAY with reason Shutdown and finishes accepted streams")
    func gracefulShutdown() async throws {
        let directory = try TemporaryDirectory()
        let emulator = try await RunningEmulator.start(directory: directory) { $0.storagePolicy = .all }
        let client = try await emulator.http2Client()
        _ = try await client.waitForEvents { !$0.settings.isEmpty }
        // Many streams in flight, then shut down while they are being committed.
        let responses = Task {
            try await withThrowingTaskGroup(of: Int.self) { group in
                for i in 0..<200 {
                    group.addTask { (try? await client.push(token: Self.token, json: #"{"i":\#(i)}"#).status) ?? -1 }
                }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
        }
        // Shut down once the first push is accepted (the journal's wait, not a sleep): a shutdown
        // before any was sent would store none and prove nothing.
        let first = try await emulator.admin("/api/v1/notifications/wait?token=\(Self.token)&timeout=30s")
        #expect(first.status == 200, "a push was accepted before the shutdown: \(first.status)")
        try await emulator.stop()
        let statuses = try await responses.value
        let events = try await client.waitForEvents { $0.goAway != nil }
        #expect(events.goAway?.errorCode == .noError)
        #expect(events.goAway?.debugData == #"{"reason":"Shutdown"}"#)
        // Every stream answered 200 was stored; none was answered and lost.
        let accepted = statuses.filter { $0 == 200 }.count
        let restarted = try await RunningEmulator.start(directory: directory) { $0.storagePolicy = .all }
        let items = try await restarted.queued(Self.token)
        // Every stream the server accepted was finished: what is stored is exactly what got a 200.
        #expect(accepted > 0, "the shutdown came while streams were being answered: \(statuses)")
        #expect(items.count == accepted)
        #expect(statuses.allSatisfy { $0 == 200 || $0 == -1 })
        try await restarted.stop()
    }

    /// Issue 53: APNs never refuses a provider because a device's backlog is long; it keeps what
    /// its policy keeps and drops the rest. A full store drops its oldest queued notifications.
    @Test(
        "a full store takes every valid push (200), drops the oldest queued (Dropped - Storage Full), and keeps the rest across a restart"
    )
    func fullStore() async throws {
        let directory = try TemporaryDirectory()
        let emulator = try await RunningEmulator.start(directory: directory) { $0.storagePolicy = .all; $0.mapSizeBytes = 256 << 10 }
        let client = try await emulator.http2Client()
        let big = #"{"a":""# + String(repeating: "y", count: 4000) + #""}"#
        var uniqueIDs: [String] = []
        for _ in 0..<200 {
            let response = try await client.push(token: Self.token, json: big)
            try #require(response.status == 200, "refused \(response.status) \(response.reason ?? "")")
            uniqueIDs.append(try #require(response.header("apns-unique-id")))
        }
        // One read of the journal: each push is queued or was dropped, none is missing. (The
        // store may drop more later, on its own look at the budget: only ever the oldest.)
        let status = try await emulator.journalStatuses("limit=1000")
        let dropped = uniqueIDs.filter { status[$0] == "dropped" }
        let queued = uniqueIDs.filter { status[$0] == "queued" }
        #expect(!dropped.isEmpty, "200 pushes of 4 KB cannot all fit in 256 KiB")
        #expect(
            dropped.count + queued.count == uniqueIDs.count,
            "\(uniqueIDs.count - dropped.count - queued.count) neither queued nor dropped")
        #expect(dropped == Array(uniqueIDs.prefix(dropped.count)), "the oldest go first")
        let log = try await emulator.adminObject("/api/v1/notifications/\(try #require(dropped.first))/delivery-log")
        #expect(
            (log["events"] as? [[String: Any]])?.contains { $0["event"] as? String == "Dropped - Storage Full" } == true, "\(log)"
        )
        let last = try #require(uniqueIDs.last)
        #expect(queued.contains(last), "the newest push is kept")
        #expect(try await emulator.admin("/healthz").status == 200)
        try await emulator.stop()

        let reopened = try await RunningEmulator.start(directory: directory) { $0.mapSizeBytes = 256 << 10 }
        let kept = try await reopened.queued(Self.token).compactMap { $0["uniqueId"] as? String }
        let newest = try #require(uniqueIDs.last)
        #expect(Set(kept).isSubset(of: queued) && kept.contains(newest), "what was queued is still there, but for the oldest")
        try await reopened.stop()
    }
}

import APNsCore
import APNsTestSupport
import Foundation
import Logging
import Synchronization
import Testing

@testable import APNsStore

/// What a store does when its map has no room left (issue 53).
@Suite("Store: a full map")
struct StoreRoomTests {
    static let tokenA = String(repeating: "aa", count: 32)

    func open(_ directory: TemporaryDirectory, change: (inout StoreConfiguration) -> Void = { _ in }) throws -> NotificationStore
    {
        var configuration = StoreConfiguration(directory: directory.appending("data"), clock: ManualClock().function)
        configuration.sweepInterval = .seconds(3600)
        change(&configuration)
        return try NotificationStore(configuration: configuration, logger: Logger(label: "test"))
    }

    func token(_ hex: String) -> DeviceToken { DeviceToken(hex: hex)! }

    /// Issue 53: real APNs never refuses a provider because a device's backlog is long; it keeps
    /// what its storage policy keeps and drops the rest.
    @Test("a full map drops the oldest queued notifications (Dropped - Storage Full) and takes every new one")
    func mapFullDropsOldest() async throws {
        let directory = try TemporaryDirectory()
        defer { try? directory.remove() }
        let dropped = Mutex<[String]>([])
        var configuration = StoreConfiguration(directory: directory.appending("data"), clock: ManualClock().function)
        configuration.sweepInterval = .seconds(3600)
        configuration.mapSizeBytes = 256 << 10
        let store = try NotificationStore(configuration: configuration, logger: Logger(label: "test")) { commit in
            for case .left(.whole(let notification), _, .dropped, _) in commit.changes {
                dropped.withLock { $0.append(notification.uniqueID) }
            }
        }
        let payload = #"{"a":""# + String(repeating: "z", count: 3000) + #""}"#
        // Unique ids in arrival order, as the emulator's version 7 ids are.
        let sent = (0..<500).map { index in
            APNsCore.Notification.test(
                token: Self.tokenA, uniqueID: "0000" + String(10_000 + index).suffix(4) + "-0000-7000-8000-000000000000",
                payload: payload)
        }
        for notification in sent {
            let outcome = try await store.submit([.accept(notification)])
            guard case .queued = outcome.first else {
                Issue.record("\(notification.uniqueID) was answered \(outcome), not queued")
                break
            }
        }
        let kept = try store.queued(for: self.token(Self.tokenA)).map(\.notification.uniqueID)
        let gone = dropped.withLock { $0 }
        #expect(!gone.isEmpty && store.statistics.droppedForRoom == gone.count)
        // The oldest went, in order; the newest stayed, in order; nothing else was lost.
        #expect(gone == sent.prefix(gone.count).map { $0.uniqueID })
        #expect(kept == sent.suffix(kept.count).map { $0.uniqueID })
        #expect(gone.count + kept.count == sent.count, "\(gone.count) dropped, \(kept.count) kept")
        store.close()
        let reopened = try self.open(directory) { $0.mapSizeBytes = 256 << 10 }
        #expect(try reopened.queued(for: self.token(Self.tokenA)).map(\.notification.uniqueID) == kept)
        reopened.close()
    }

    /// LMDB reuses a page only when no read transaction still sees a snapshot from before it was
    /// freed (mdb.c, mdb_page_alloc and mdb_find_oldest): what a full store drops is room only
    /// once readers that started earlier are done. A reader that is slow to finish (an admin read on
    /// a loaded machine) made every retry fail at once, and a push got 503 (this session's CI).
    @Test("while a reader holds an older snapshot, a full map waits for it instead of refusing", .timeLimit(.minutes(1)))
    func mapFullWaitsForOlderReaders() async throws {
        let directory = try TemporaryDirectory()
        defer { try? directory.remove() }
        let store = try self.open(directory) { $0.mapSizeBytes = 256 << 10 }
        let payload = #"{"a":""# + String(repeating: "z", count: 3000) + #""}"#
        func accept(_ index: Int) async throws {
            let notification = APNsCore.Notification.test(
                token: Self.tokenA, uniqueID: "0000" + String(10_000 + index).suffix(4) + "-0000-7000-8000-000000000000",
                payload: payload)
            let outcome = try await store.submit([.accept(notification)])
            guard case .queued = outcome.first else { throw StoreError.mapFull(mapSizeBytes: 0) }
        }
        for index in 0..<150 { try await accept(index) }
        #expect(store.statistics.droppedForRoom > 0, "the map was not full yet")
        // A reader opens a snapshot now and keeps it until the writes below have begun failing for room.
        let release = DispatchSemaphore(value: 0)
        let reader = Thread {
            _ = try? store.read { _ throws(StoreError) in release.wait() }
        }
        reader.start()
        defer { release.signal() }
        let deadline = ContinuousClock.now + .seconds(30)
        while store.environment.oldestReader() == nil {
            try #require(ContinuousClock.now < deadline, "the reader's snapshot never opened")
            try await Task.sleep(for: .milliseconds(1))
        }
        let before = store.statistics.failedCommits
        let writes = Task { for index in 150..<250 { try await accept(index) } }
        // Until a commit failed for room (or all were taken, which the reader would make a wonder).
        while store.statistics.failedCommits == before, try store.queuedCount() < 250 {
            try #require(ContinuousClock.now < deadline, "no commit met the full map within 30 s")
            try await Task.sleep(for: .milliseconds(1))
        }
        release.signal()
        try await writes.value
        #expect(
            try store.queued(for: self.token(Self.tokenA)).last?.notification.uniqueID == "00000249-0000-7000-8000-000000000000")
        store.close()
    }

    @Test("a map with nothing queued to drop still refuses what does not fit with mapFull, and stays usable")
    func mapFullWithNothingToDrop() async throws {
        let directory = try TemporaryDirectory()
        defer { try? directory.remove() }
        let store = try self.open(directory) { $0.mapSizeBytes = 256 << 10 }
        let huge = APNsCore.Notification.test(
            token: Self.tokenA, payload: #"{"a":""# + String(repeating: "z", count: 400_000) + #""}"#)
        do {
            _ = try await store.submit([.accept(huge)])
            Issue.record("a notification larger than the map was stored")
        } catch {
            guard case .mapFull = error as? StoreError else {
                Issue.record("expected mapFull, got \(error)")
                return
            }
        }
        // Until a write succeeds, the store says it cannot write (GET /readyz reads this), and why.
        let outage = try #require(store.outage)
        #expect(outage.error == .mapFull(mapSizeBytes: 256 << 10))
        #expect(outage.refused == 1 && outage.failedCommits == 1)
        let small = APNsCore.Notification.test(token: Self.tokenA, payload: #"{"aps":{}}"#)
        _ = try await store.submit([.accept(small)])
        #expect(try store.queued(for: self.token(Self.tokenA)).map(\.notification) == [small])
        #expect(store.outage == nil, "a write succeeded: the outage is over")
        store.close()
    }
}

import APNsCore
import APNsStore
import APNsTestSupport
import Foundation
import Logging
import Testing

/// `--retain` (issue 53): the history the store keeps across restarts (notifications that left
/// their queues, rejected requests) within a count, a size and an age, the oldest going first;
/// a notification still queued for a device is never history.
@Suite("Store: retention")
struct RetentionTests {
    func open(_ directory: TemporaryDirectory, clock: ManualClock, _ retention: Retention) throws -> NotificationStore {
        var configuration = StoreConfiguration(directory: directory.appending("data"), clock: clock.function)
        configuration.sweepInterval = .seconds(3600)
        configuration.retention = retention
        return try NotificationStore(configuration: configuration, logger: Logger(label: "test"))
    }

    /// Discarded at once (expiration 0, no device online): history from its first moment.
    func discarded(_ index: Int, size: Int = 0) -> APNsCore.Notification {
        .test(expiration: 0, payload: #"{"i":\#(index),"pad":""# + String(repeating: "p", count: size) + #""}"#)
    }

    /// A notification for a token no device holds, which stays queued however long it waits.
    func queueOne(_ store: NotificationStore) async throws -> APNsCore.Notification {
        let queued = APNsCore.Notification.test(token: String(repeating: "cd", count: 32), payload: #"{"queued":1}"#)
        _ = try await store.submit([.accept(queued)])
        return queued
    }

    func rejection(_ index: Int, at millis: Int64) -> StoreOperation {
        .recordRejection(RejectionKey(receivedAt: millis, id: "rejected-\(index)"), record: Array("r\(index)".utf8))
    }

    @Test("--retain reads a count, a size and an age in any order; a part that is none of them is named")
    func parsing() throws {
        #expect(try Retention(parsing: "500000") == Retention(count: 500_000, bytes: 2 << 30, age: nil))
        #expect(try Retention(parsing: "512MiB").bytes == 512 << 20)
        #expect(try Retention(parsing: "100MB").bytes == 100_000_000)
        #expect(try Retention(parsing: "7d").age == .seconds(7 * 86_400))
        #expect(try Retention(parsing: "24h, 1000 ,1GiB") == Retention(count: 1000, bytes: 1 << 30, age: .seconds(86_400)))
        for bad in ["lots", "0", "-5", "1000,", "5parsecs", "0GiB"] {
            #expect {
                try Retention(parsing: bad)
            } throws: { error in
                (error as? RetentionError)?.description.contains("is not a count (500000), a size") == true
            }
        }
    }

    @Test("past the count the oldest history goes first, notifications and refusals alike; queued ones stay")
    func count() async throws {
        let directory = try TemporaryDirectory()
        defer { try? directory.remove() }
        let clock = ManualClock()
        let store = try self.open(directory, clock: clock, Retention(count: 10, bytes: 1 << 30, age: nil))
        let queued = try await self.queueOne(store)
        var order: [String] = []  // what entered the history, oldest first
        for index in 0..<21 {
            clock.advance(seconds: 1)
            if index % 3 == 1 {
                _ = try await store.submit([self.rejection(index, at: clock.now)])
                order.append("rejected-\(index)")
            } else {
                let notification = self.discarded(index)
                _ = try await store.submit([.accept(notification)])
                order.append(notification.uniqueID)
            }
        }
        let kept = try store.logged().map(\.notification.uniqueID) + store.rejections().map(\.key.id)
        #expect(Set(kept) == Set(order.suffix(10)), "kept \(kept.count): \(kept)")
        #expect(try store.queued(for: queued.token).map(\.notification) == [queued])
        store.close()
        // And across a restart.
        let reopened = try self.open(directory, clock: clock, Retention(count: 10, bytes: 1 << 30, age: nil))
        #expect(try reopened.logged().count + reopened.rejections().count == 10)
        reopened.close()
    }

    @Test("past the size the oldest history goes until its pages fit; the newest and the queued stay")
    func size() async throws {
        let directory = try TemporaryDirectory()
        defer { try? directory.remove() }
        let clock = ManualClock()
        let limit = 96 << 10
        let store = try self.open(directory, clock: clock, Retention(count: 1_000_000, bytes: limit, age: nil))
        let queued = try await self.queueOne(store)
        var sent: [String] = []
        for index in 0..<300 {
            clock.advance(seconds: 1)
            let notification = self.discarded(index, size: 1500)
            _ = try await store.submit([.accept(notification)])
            sent.append(notification.uniqueID)
        }
        let kept = try store.logged().map(\.notification.uniqueID)
        // 300 entries of 1.5 KB are 450 KB: far past 96 KiB. What is kept is the newest, in order.
        #expect(kept.count > 10 && kept.count < 96 * 1024 / 1500, "kept \(kept.count)")
        #expect(kept == Array(sent.suffix(kept.count).reversed()))
        #expect(try store.queued(for: queued.token).map(\.notification) == [queued])
        store.close()
    }

    @Test("past the age history goes at the next sweep, by when it entered; queued ones stay however old")
    func age() async throws {
        let directory = try TemporaryDirectory()
        defer { try? directory.remove() }
        let clock = ManualClock()
        let store = try self.open(directory, clock: clock, Retention(count: 1_000_000, bytes: 1 << 30, age: .seconds(3600)))
        let queued = try await self.queueOne(store)
        let early = (0..<5).map { self.discarded($0) }
        _ = try await store.submit(early.map { .accept($0) } + [self.rejection(0, at: clock.now)])
        clock.advance(seconds: 1800)
        let late = (5..<10).map { self.discarded($0) }
        _ = try await store.submit(late.map { .accept($0) } + [self.rejection(1, at: clock.now)])
        _ = try await store.submit([.sweepExpired])
        #expect(try store.logged().count == 10 && store.rejections().count == 2, "nothing is an hour old yet")
        clock.advance(seconds: 1801)
        _ = try await store.submit([.sweepExpired])
        #expect(try Set(store.logged().map(\.notification.uniqueID)) == Set(late.map(\.uniqueID)))
        #expect(try store.rejections().map(\.key.id) == ["rejected-1"])
        #expect(try store.queued(for: queued.token).map(\.notification) == [queued])
        store.close()
    }
}

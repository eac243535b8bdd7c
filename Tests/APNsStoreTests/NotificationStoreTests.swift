import APNsCore
import APNsStore
import APNsTestSupport
import Foundation
import Logging
import Synchronization
import Testing

@Suite("LMDB notification store")
struct NotificationStoreTests {
    static let tokenA = String(repeating: "aa", count: 32)
    static let tokenB = String(repeating: "bb", count: 32)

    func open(
        _ directory: TemporaryDirectory,
        clock: ManualClock = ManualClock(),
        change: (inout StoreConfiguration) -> Void = { _ in }
    ) throws -> NotificationStore {
        var configuration = StoreConfiguration(directory: directory.appending("data"), clock: clock.function)
        configuration.sweepInterval = .seconds(3600)
        change(&configuration)
        return try NotificationStore(configuration: configuration, logger: Logger(label: "test"))
    }

    func token(_ hex: String) -> DeviceToken { DeviceToken(hex: hex)! }

    @Test("accepted notifications queue per device, oldest first, with every field intact")
    func queuesPerDevice() async throws {
        let directory = try TemporaryDirectory()
        defer { try? directory.remove() }
        let store = try self.open(directory)
        let first = Notification.test(token: Self.tokenA, payload: #"{"n":1}"#, collapseID: "c")
        let other = Notification.test(token: Self.tokenB, payload: #"{"n":2}"#, topic: nil)
        let second = Notification.test(token: Self.tokenA, expiration: 1_900_000_000, payload: #"{"n":3}"#)
        let outcomes = try await store.submit([.accept(first), .accept(other), .accept(second)])
        guard case .queued(let s1) = outcomes[0], case .queued(let s2) = outcomes[1], case .queued(let s3) = outcomes[2] else {
            Issue.record("expected three queued outcomes, got \(outcomes)")
            return
        }
        #expect(s1 < s2 && s2 < s3)
        let queueA = try store.queued(for: self.token(Self.tokenA))
        #expect(queueA.map(\.notification) == [first, second])
        #expect(try store.queued(for: self.token(Self.tokenB)).map(\.notification) == [other])
        #expect(try store.queued(for: self.token(String(repeating: "cc", count: 32))).isEmpty)
        // A longer token starting with the same bytes is a different queue.
        #expect(try store.queued(for: self.token(Self.tokenA + "aa")).isEmpty)
        #expect(try store.queuedCount() == 3)
        store.close()
    }

    @Test("everything committed is there after reopening, and sequences keep rising")
    func survivesReopen() async throws {
        let directory = try TemporaryDirectory()
        defer { try? directory.remove() }
        var store = try self.open(directory)
        let notifications = (0..<100).map { Notification.test(token: Self.tokenA, payload: #"{"i":\#($0)}"#) }
        let outcomes = try await store.submit(notifications.map { .accept($0) })
        store.close()
        #expect(throws: StoreError.closed) { try store.queued(for: self.token(Self.tokenA)) }

        store = try self.open(directory)
        #expect(try store.queued(for: self.token(Self.tokenA)).map(\.notification) == notifications)
        let more = try await store.submit([.accept(.test(token: Self.tokenA))])
        guard case .queued(let last) = outcomes.last, case .queued(let next) = more.first else {
            Issue.record("expected queued outcomes")
            return
        }
        #expect(next > last)
        store.close()
    }

    @Test("submissions from many threads at once share commits (group commit) and all get outcomes")
    func groupCommit() async throws {
        let directory = try TemporaryDirectory()
        defer { try? directory.remove() }
        let store = try self.open(directory)
        let total = 2000
        let sequences = Mutex<[UInt64]>([])
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.concurrentPerform(iterations: total) { i in
            store.submit([.accept(.test(token: String(format: "%064x", i % 50)))]) { result in
                if case .success(let outcomes) = result, case .queued(let sequence) = outcomes.first {
                    sequences.withLock { $0.append(sequence) }
                }
                done.signal()
            }
        }
        for _ in 0..<total { done.wait() }
        let all = sequences.withLock { $0 }
        #expect(all.count == total)
        #expect(Set(all).count == total)
        let statistics = store.statistics
        #expect(statistics.operations == total)
        #expect(statistics.commits < total / 4, "expected batching, got \(statistics.commits) commits for \(total) submissions")
        #expect(try store.queuedCount() == total)
        store.close()
    }

    @Test("the sweeper moves expired notifications to the log; the rest stay queued")
    func expirySweep() async throws {
        let directory = try TemporaryDirectory()
        defer { try? directory.remove() }
        let clock = ManualClock()
        let store = try self.open(directory, clock: clock)
        let nowSeconds = clock.now / 1000
        let soon = Notification.test(token: Self.tokenA, expiration: nowSeconds + 60, receivedAt: clock.now)
        let later = Notification.test(token: Self.tokenA, expiration: nowSeconds + 3600, receivedAt: clock.now)
        let policy = Notification.test(token: Self.tokenB, receivedAt: clock.now)
        _ = try await store.submit([.accept(soon), .accept(later), .accept(policy)])

        #expect(try await store.submit([.sweepExpired]) == [.swept(count: 0)])
        clock.advance(seconds: 60)
        #expect(try await store.submit([.sweepExpired]) == [.swept(count: 1)])
        #expect(try store.queued(for: self.token(Self.tokenA)).map(\.notification) == [later])
        let log = try store.logged()
        #expect(log.map(\.notification) == [soon])
        #expect(log.first?.status == .expired)
        #expect(log.first?.at == clock.now)

        // Omitted expiration: kept for the storage limit (30 days), then swept.
        clock.advance(seconds: 30 * 86_400)
        #expect(try await store.submit([.sweepExpired]) == [.swept(count: 2)])
        #expect(try store.queuedCount() == 0)
        #expect(try store.logged().count == 3)
        store.close()
    }

    @Test("the writer sweeps by itself on its interval")
    func periodicSweep() async throws {
        let directory = try TemporaryDirectory()
        defer { try? directory.remove() }
        let clock = ManualClock()
        let store = try self.open(directory, clock: clock) { $0.sweepInterval = .milliseconds(20) }
        _ = try await store.submit([.accept(.test(expiration: clock.now / 1000 + 1, receivedAt: clock.now))])
        clock.advance(seconds: 2)
        let deadline = ContinuousClock.now + .seconds(10)
        while try store.queuedCount() > 0, ContinuousClock.now < deadline {
            await Task.yield()
        }
        #expect(try store.queuedCount() == 0)
        #expect(try store.logged().first?.status == .expired)
        store.close()
    }

    @Test("expiration 0 or in the past is discarded and recorded, never queued")
    func discarded() async throws {
        let directory = try TemporaryDirectory()
        defer { try? directory.remove() }
        let clock = ManualClock()
        let store = try self.open(directory, clock: clock)
        let zero = Notification.test(expiration: 0, receivedAt: clock.now)
        let past = Notification.test(expiration: clock.now / 1000 - 1, receivedAt: clock.now)
        #expect(try await store.submit([.accept(zero), .accept(past)]) == [.discarded, .discarded])
        #expect(try store.queuedCount() == 0)
        let log = try store.logged()
        #expect(log.map(\.notification) == [past, zero])
        #expect(log.allSatisfy { $0.status == .discarded })
        store.close()
    }

    @Test("the log keeps only the newest entries up to --retain's count")
    func logLimit() async throws {
        let directory = try TemporaryDirectory()
        defer { try? directory.remove() }
        let store = try self.open(directory) { $0.retention.count = 10 }
        let discarded = (0..<25).map { Notification.test(expiration: 0, payload: #"{"i":\#($0)}"#) }
        _ = try await store.submit(discarded.map { .accept($0) })
        let log = try store.logged()
        #expect(log.count == 10)
        #expect(log.map(\.notification) == Array(discarded.suffix(10).reversed()))
        store.close()
    }

    @Test("a data directory that cannot be created is a clear error")
    func badDirectory() throws {
        let directory = try TemporaryDirectory()
        defer { try? directory.remove() }
        let file = directory.appending("file")
        #expect(FileManager.default.createFile(atPath: file, contents: Data()))
        let configuration = StoreConfiguration(directory: file + "/data")
        #expect {
            try NotificationStore(configuration: configuration, logger: Logger(label: "test"))
        } throws: { error in
            guard case .dataDirectory(let path, _) = error as? StoreError else { return false }
            return path == file + "/data"
        }
    }
}

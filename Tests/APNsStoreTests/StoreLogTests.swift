import APNsCore
import APNsTestSupport
import Foundation
import Logging
import Testing

@testable import APNsStore

/// The store is a log (issue 53): every notification's record is appended once, in the order it
/// was accepted; the queues and indexes hold keys only, and where each went is a short entry
/// appended to the history. A store written in the layout before is brought over at open.
@Suite("Store: the log")
struct StoreLogTests {
    func open(_ directory: TemporaryDirectory, clock: ManualClock, retention: Retention = .standard) throws -> NotificationStore {
        var configuration = StoreConfiguration(directory: directory.appending("data"), clock: clock.function)
        configuration.sweepInterval = .seconds(3600)
        configuration.retention = retention
        return try NotificationStore(configuration: configuration, logger: Logger(label: "test"))
    }

    func counts(_ store: NotificationStore) throws -> (log: Int, queue: Int, history: Int) {
        try store.read { txn throws(StoreError) in
            (
                try txn.count(store.environment.log), try txn.count(store.environment.queue),
                try txn.count(store.environment.history)
            )
        }
    }

    @Test("a record is written once: delivered or expired, it stays where the log put it, and the history says where it went")
    func writtenOnce() async throws {
        let directory = try TemporaryDirectory()
        defer { try? directory.remove() }
        let clock = ManualClock()
        let store = try self.open(directory, clock: clock)
        defer { store.close() }
        let token = String(repeating: "ab", count: 32)
        let first = APNsCore.Notification.test(token: token, payload: #"{"n":1}"#)
        let second = APNsCore.Notification.test(token: token, expiration: clock.now / 1000 + 60, payload: #"{"n":2}"#)
        let third = APNsCore.Notification.test(token: token, payload: #"{"n":3}"#)
        _ = try await store.submit([.accept(first), .accept(second), .accept(third)])
        #expect(try self.counts(store) == (log: 3, queue: 3, history: 0))
        // The queue holds keys; the records are the log's.
        let emptyValues = try store.read { txn throws(StoreError) in
            var empty = 0
            try txn.scan(store.environment.queue) { _, value in
                empty += value.isEmpty ? 1 : 0
                return true
            }
            return empty
        }
        #expect(emptyValues == 3)

        _ = try await store.submit([.acknowledge(uniqueID: first.uniqueID)])
        clock.advance(seconds: 120)
        _ = try await store.submit([.sweepExpired])
        #expect(try self.counts(store) == (log: 3, queue: 1, history: 2))
        #expect(try store.logged().map(\.status) == [.expired, .delivered])
        #expect(try store.logged().map(\.notification) == [second, first])
        #expect(try store.queued(for: first.token).map(\.notification) == [third])
    }

    @Test("the history is trimmed in the order notifications left their queues, not the order they came")
    func trimmedByLeaving() async throws {
        let directory = try TemporaryDirectory()
        defer { try? directory.remove() }
        let clock = ManualClock()
        let store = try self.open(directory, clock: clock, retention: Retention(count: 2, bytes: 1 << 30, age: nil))
        defer { store.close() }
        let waiting = APNsCore.Notification.test(token: String(repeating: "cd", count: 32), payload: #"{"waited":1}"#)
        let early = APNsCore.Notification.test(expiration: 0, payload: #"{"early":1}"#)
        let late = APNsCore.Notification.test(expiration: 0, payload: #"{"late":1}"#)
        _ = try await store.submit([.accept(waiting)])
        clock.advance(seconds: 1)
        _ = try await store.submit([.accept(early)])
        clock.advance(seconds: 1)
        _ = try await store.submit([.accept(late)])
        clock.advance(seconds: 1)
        // Accepted first, it leaves last: the oldest in the history is `early`, which goes.
        _ = try await store.submit([.acknowledge(uniqueID: waiting.uniqueID)])
        #expect(try store.logged().map(\.notification) == [waiting, late])
        #expect(try self.counts(store) == (log: 2, queue: 0, history: 2))
    }

    @Test("a store in the layout before (records in the queues, statuses in the log) is brought over at open, once")
    func migrates() async throws {
        let directory = try TemporaryDirectory()
        defer { try? directory.remove() }
        let queued = APNsCore.Notification.test(token: String(repeating: "ef", count: 32), payload: #"{"old":"queued"}"#)
        let delivered = APNsCore.Notification.test(token: String(repeating: "ef", count: 32), payload: #"{"old":"delivered"}"#)
        let expired = APNsCore.Notification.test(token: String(repeating: "ef", count: 32), payload: #"{"old":"expired"}"#)
        // The layout before: queue key → record; log: sequence → status · at · record.
        let environment = try LMDBEnvironment.open(directory: directory.appending("data"), mapSize: 64 << 20, sync: true)
        try environment.write { txn throws(StoreError) in
            try txn.put(environment.queue, StoreKeys.queueKey(queued.token, sequence: 3), NotificationCodec.encode(queued))
            try txn.put(environment.unique, StoreKeys.uniqueKey(queued.uniqueID), StoreKeys.queueKey(queued.token, sequence: 3))
            // Sequence 1 left after sequence 2.
            for (sequence, status, at, notification) in [(1, LogStatus.delivered, 2000, delivered), (2, .expired, 1000, expired)]
            {
                var value: [UInt8] = [status.rawValue]
                value.appendBigEndian(UInt64(at))
                value += NotificationCodec.encode(notification)
                try txn.put(environment.log, StoreKeys.logKey(sequence: UInt64(sequence)), value)
            }
            var next: [UInt8] = []
            next.appendBigEndian(UInt64(4))
            try txn.put(environment.meta, StoreKeys.nextSequence, next)
        }
        environment.close()

        for round in 0..<2 {
            let store = try self.open(directory, clock: ManualClock())
            defer { store.close() }
            #expect(try store.queued(for: queued.token).map(\.notification) == [queued], "round \(round)")
            #expect(try store.logged().map(\.notification) == [delivered, expired], "round \(round): newest to leave first")
            var visited: [(UInt64, LogStatus?, Int64?)] = []
            try store.visitNotifications { sequence, status, at, _ in visited.append((sequence, status, at)) }
            #expect(visited.map(\.0) == [1, 2, 3] && visited.map(\.1) == [.delivered, .expired, nil])
            #expect(visited.map(\.2) == [2000, 1000, nil])
            #expect(try store.sequences(containing: Array("queued".utf8)) == [3])
        }
        let store = try self.open(directory, clock: ManualClock())
        defer { store.close() }
        _ = try await store.submit([.acknowledge(uniqueID: queued.uniqueID)])
        #expect(try store.logged().map(\.notification) == [queued, delivered, expired])
        #expect(try self.counts(store) == (log: 3, queue: 0, history: 3))
    }

    @Test("a record keeps the headers a provider left out; a record written before them (version 1) reads with none")
    func assumedHeaders() throws {
        var notification = APNsCore.Notification.test(token: String(repeating: "ab", count: 32), payload: #"{"one":1}"#)
        notification.assumed = [.pushType, .apnsID]
        let record = NotificationCodec.encode(notification)
        #expect(record.count == NotificationCodec.size(of: notification))
        #expect(try NotificationCodec.decode(record).assumed == [.pushType, .apnsID])
        var older = record
        older.removeSubrange(1...2)  // the assumed headers and the environment (version 3)
        older[0] = 1
        let decoded = try NotificationCodec.decode(older)
        #expect(decoded.assumed == [] && decoded.payload == notification.payload && decoded.topic == notification.topic)
        let fields = try older.withUnsafeBytes { try NotificationCodec.topicAndCollapseID(of: $0) }
        #expect(fields.topic.map { String(decoding: $0, as: UTF8.self) } == notification.topic)
        #expect(try older.withUnsafeBytes { try NotificationCodec.contains(Array("one".utf8), in: $0) })
    }

    @Test(
        "a record keeps the environment it was sent to; one written before the emulator served both (version 2) is development's")
    func environment() throws {
        var notification = APNsCore.Notification.test(token: String(repeating: "cd", count: 32), payload: #"{"two":2}"#)
        notification.environment = .production
        let record = NotificationCodec.encode(notification)
        #expect(record.count == NotificationCodec.size(of: notification))
        #expect(try NotificationCodec.decode(record) == notification)
        var older = record
        older.remove(at: 2)
        older[0] = 2
        let decoded = try NotificationCodec.decode(older)
        #expect(decoded.environment == .development && decoded.payload == notification.payload)
        let fields = try older.withUnsafeBytes { try NotificationCodec.topicAndCollapseID(of: $0) }
        #expect(fields.topic.map { String(decoding: $0, as: UTF8.self) } == notification.topic)
        #expect(try older.withUnsafeBytes { try NotificationCodec.contains(Array("two".utf8), in: $0) })
        var unknown = record
        unknown[2] = 7
        #expect(throws: StoreError.corruptRecord("environment")) { try NotificationCodec.decode(unknown) }
    }

    @Test("a token record keeps its environment; one written before the emulator served both reads as development's")
    func tokenEnvironment() throws {
        let token = try #require(DeviceToken(hex: String(repeating: "ef", count: 32)))
        let record = TokenRecord(
            token: token, topic: "t", deviceID: "d", registeredAt: 5, unregisteredAt: nil, environment: .production)
        let bytes = TokenRecordCodec.encode(record)
        #expect(try TokenRecordCodec.decode(token: token, bytes) == record)
        var older = try TokenRecordCodec.decode(token: token, Array(bytes.dropLast()))
        #expect(older.environment == .development)
        older.environment = .production
        #expect(older == record)
    }
}

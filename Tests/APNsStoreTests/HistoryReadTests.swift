import APNsCore
import APNsStore
import APNsTestSupport
import Foundation
import Logging
import Testing

/// What the journal's archive reads back from the store (issue 53: the journal over everything
/// the store keeps): records by key, all of them in order at start, and a text search in place.
@Suite("Store: reading history back")
struct HistoryReadTests {
    /// A fresh store in a directory of its own for `body`, closed and removed after.
    func withStore(_ body: (NotificationStore) async throws -> Void) async throws {
        let directory = try TemporaryDirectory()
        defer { try? directory.remove() }
        var configuration = StoreConfiguration(directory: directory.appending("data"), clock: ManualClock().function)
        configuration.sweepInterval = .seconds(3600)
        let store = try NotificationStore(configuration: configuration, logger: Logger(label: "test"))
        defer { store.close() }
        try await body(store)
    }

    @Test("queued and logged notifications read back by key and visited in the order they were accepted")
    func readBack() async throws {
        try await self.withStore { store in
            let queued = APNsCore.Notification.test(token: String(repeating: "01", count: 32), payload: #"{"first":1}"#)
            let discarded = APNsCore.Notification.test(expiration: 0, payload: #"{"second":2}"#)
            let later = APNsCore.Notification.test(token: String(repeating: "00", count: 32), payload: #"{"third":3}"#)
            var sequences: [UInt64] = []
            for notification in [queued, discarded, later] {
                switch try await store.submit([.accept(notification)]).first {
                case .queued(let sequence): sequences.append(sequence)
                default: sequences.append(try #require(try store.logged().first?.sequence))
                }
            }
            let keys = zip([queued, discarded, later], sequences).map { StoredNotificationKey(token: $0.token, sequence: $1) }
            #expect(try store.notifications(at: keys) == [queued, discarded, later])
            #expect(try store.notifications(at: [StoredNotificationKey(token: queued.token, sequence: 999)]) == [nil])
            var visited: [(UInt64, LogStatus?)] = []
            try store.visitNotifications { sequence, status, _, _ in visited.append((sequence, status)) }
            // The later one's token sorts first among the queues; the visit is still in acceptance order.
            #expect(visited.map(\.0) == sequences && visited.map(\.1) == [nil, .discarded, nil])
            #expect(try store.historyCount() == (notifications: 3, rejections: 0))
        }
    }

    @Test("a text search in place: payload, ids, topic and push type, ASCII case-insensitive; never the source or binary fields")
    func search() async throws {
        try await self.withStore { store in
            let shout = APNsCore.Notification.test(
                uniqueID: "aaaa-Unique", payload: #"{"aps":{"alert":"Hello World"}}"#, topic: "com.Example.Shout")
            let quiet = APNsCore.Notification.test(
                expiration: 0, payload: #"{"aps":{"alert":"psst"}}"#, topic: "com.example.quiet")
            _ = try await store.submit([.accept(shout), .accept(quiet)])
            let all = try store.historyCount().notifications
            #expect(all == 2)
            func found(_ text: String) throws -> Int { try store.sequences(containing: Array(text.utf8)).count }
            #expect(try found("hello world") == 1)
            #expect(try found("psst") == 1)
            #expect(try found("com.example.") == 2)
            #expect(try found("aaaa-unique") == 1)
            #expect(try found("alert") == 2, "the push type (alert) and the payload")
            #expect(try found("http2") == 0, "the source is not what was sent")
            #expect(try found("nowhere") == 0)
            #expect(try found("shout") == 1, "letters only, the first upper-case where stored")
            #expect(try found(#"world"}}"#) == 1, "at the very end of the payload")
            #expect(try found("{") == 2, "at the very start of it")
        }
    }

    @Test("the search splits the queues and the log in two and finds what is on either side of the split, once")
    func searchBothHalves() async throws {
        try await self.withStore { store in
            var marked: [String] = []
            for n in 0..<200 {
                let hex = String(n % 100, radix: 16)
                let token = String(repeating: "0", count: 64 - hex.count) + hex
                let mark = n % 7 == 0 ? "marked" : "plain"
                let notification = APNsCore.Notification.test(
                    token: token, expiration: n % 2 == 0 ? 0 : nil, payload: #"{"aps":{"alert":"\#(mark) \#(n)"}}"#)
                _ = try await store.submit([.accept(notification)])
                if n % 7 == 0 { marked.append(notification.uniqueID) }
            }
            #expect(try store.historyCount().notifications == 200)
            let found = try store.sequences(containing: Array("marked".utf8))
            let stored = try store.logged().filter { found.contains($0.sequence) }.map(\.notification.uniqueID)
            var queuedFound: [String] = []
            for n in 0..<100 {
                let hex = String(n, radix: 16)
                let token = String(repeating: "0", count: 64 - hex.count) + hex
                queuedFound += try store.queued(for: try #require(DeviceToken(hex: token))).filter { found.contains($0.sequence) }
                    .map(\.notification.uniqueID)
            }
            #expect(found.count == marked.count)
            #expect(Set(stored + queuedFound) == Set(marked))
            #expect(!stored.isEmpty && !queuedFound.isEmpty, "marked ones in the log and in the queues")
        }
    }
}

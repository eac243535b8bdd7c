import APNsCore
import APNsStore
import APNsTestSupport
import Foundation
import Logging
import Synchronization
import Testing

@Suite("Store observer, delete and clear")
struct StoreChangeTests {
    @Test("the observer hears each commit's changes in order: accepted, left with its status, cleared")
    func observer() async throws {
        let directory = try TemporaryDirectory()
        defer { try? directory.remove() }
        let heard = Mutex<[StoreCommit]>([])
        let clock = ManualClock()
        var configuration = StoreConfiguration(directory: directory.appending("data"), clock: clock.function)
        configuration.sweepInterval = .seconds(3600)
        let store = try NotificationStore(configuration: configuration, logger: Logger(label: "test")) { commit in
            heard.withLock { $0.append(commit) }
        }
        let first = Notification.test(collapseID: "c")
        let second = Notification.test(collapseID: "c")
        let once = Notification.test(expiration: 0)
        _ = try await store.submit([.accept(first), .accept(second), .accept(once)])
        _ = try await store.submit([.acknowledge(uniqueID: second.uniqueID)])
        _ = try await store.submit([.clear(devices: false)])
        store.close()

        let commits = heard.withLock { $0 }
        #expect(commits.count == 3)
        #expect(commits[0].operations == 3)
        var kinds: [String] = []
        var named: [UInt64: String] = [:]
        var lefts: [LogStatus: LeftNotification] = [:]
        for change in commits.flatMap(\.changes) {
            switch change {
            case .accepted(let notification, let sequence, _, let status, _):
                named[sequence] = [first.uniqueID: "first", second.uniqueID: "second"][notification.uniqueID] ?? "once"
                kinds.append(
                    "accepted \(notification.uniqueID == once.uniqueID ? "once" : "n") \(status?.description ?? "queued")")
            case .left(let left, let sequence, let status, _):
                kinds.append("left \(named[sequence] ?? "unknown") \(status)")
                lefts[status] = left
            case .cleared(let devices): kinds.append("cleared \(devices)")
            case .forgotten(let sequences, let rejections): kinds.append("forgotten \(sequences.count + rejections.count)")
            case .unkept(let sequences): kinds.append("unkept \(sequences.count)")
            }
        }
        #expect(
            kinds == [
                "accepted n queued", "left first replaced", "accepted n queued", "accepted once discarded",
                "left second delivered", "cleared false",
            ])
        // A replaced one is told without being decoded (its record stays in the log): its token,
        // push type and priority, what the Console's counts need. One delivered was decoded to be sent.
        let replaced = lefts[.replaced]
        #expect(replaced?.whole == nil)
        #expect(replaced?.token == first.token && replaced?.pushType == first.pushType)
        #expect(replaced?.priority == first.priority)
        #expect(lefts[.delivered]?.whole?.uniqueID == second.uniqueID)
    }

    @Test("delete forgets queued and logged notifications; clear empties queues, log and feedback but keeps tokens unless asked")
    func deleteAndClear() async throws {
        let directory = try TemporaryDirectory()
        defer { try? directory.remove() }
        var configuration = StoreConfiguration(directory: directory.appending("data"))
        configuration.sweepInterval = .seconds(3600)
        let store = try NotificationStore(configuration: configuration, logger: Logger(label: "test"))
        let token = DeviceToken(hex: String(repeating: "ab", count: 32))!
        let kept = Notification.test(payload: #"{"n":1}"#)
        let dropped = Notification.test(payload: #"{"n":2}"#)
        let logged = Notification.test(expiration: 0)
        let outcomes = try await store.submit([.accept(kept), .accept(dropped), .accept(logged)])
        guard case .queued(let droppedSequence) = outcomes[1] else {
            Issue.record("\(outcomes)")
            return
        }
        let loggedSequence = droppedSequence + 1
        let deleted = try await store.submit([
            .delete([
                StoredNotificationKey(token: token, sequence: droppedSequence),
                StoredNotificationKey(token: token, sequence: loggedSequence),
            ])
        ])
        #expect(deleted == [.deleted(count: 2)])
        #expect(try store.queued(for: token).map(\.notification.uniqueID) == [kept.uniqueID])
        #expect(try store.logged().isEmpty)

        let other = DeviceToken(hex: String(repeating: "bb", count: 32))!
        _ = try await store.submit([.register(token: other, topic: "com.example.app", deviceID: nil), .unregister(token: token)])
        _ = try await store.submit([.clear(devices: false)])
        #expect(try store.queuedCount() == 0)
        #expect(try store.feedback().isEmpty)
        #expect(try store.token(other) != nil)
        _ = try await store.submit([.clear(devices: true)])
        #expect(try store.token(other) == nil)
        // The queue lengths the writer keeps were reset too: the cap still counts from zero.
        _ = try await store.submit([.accept(Notification.test())])
        #expect(try store.queuedCount(for: token) == 1)
        store.close()
    }
}

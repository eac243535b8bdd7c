import APNsCore
import APNsStore
import APNsTestSupport
import Dispatch
import Foundation
import Logging
import Synchronization
import Testing

/// The writer's own contract, apart from what any one operation does: group commit (what is
/// submitted while a commit is under way goes into the next transaction together, each submitter
/// hearing its own outcomes, in the order submitted), and closing (what was submitted before
/// `close` is committed; what comes after is refused, never lost silently; the sequence goes on
/// after a reopen).
@Suite("Store writer: group commit and closing")
struct StoreWriterTests {
    /// What the observer and the completions saw, from the writer's thread.
    final class Seen: Sendable {
        let commits = Mutex<[(operations: Int, accepted: [UInt64])]>([])
        let completions = Mutex<[(name: String, outcomes: [StoreOutcome])]>([])
    }

    static func open(_ directory: TemporaryDirectory, seen: Seen) throws -> NotificationStore {
        var configuration = StoreConfiguration(directory: directory.appending("data"), durability: .durable)
        configuration.storagePolicy = .all
        configuration.sweepInterval = .seconds(3600)
        return try NotificationStore(configuration: configuration, logger: Logger(label: "test")) { commit in
            let accepted = commit.changes.compactMap { change -> UInt64? in
                guard case .accepted(_, let sequence, _, _, _) = change else { return nil }
                return sequence
            }
            seen.commits.withLock { $0.append((commit.operations, accepted)) }
        }
    }

    static func accept(_ n: Int) -> StoreOperation {
        .accept(Notification.test(token: String(format: "%064x", n), payload: #"{"n":\#(n)}"#))
    }

    /// Waits for `semaphore` at most 30 s; false if it did not come (the test then fails at once).
    static func arrived(_ semaphore: DispatchSemaphore) -> Bool {
        semaphore.wait(timeout: .now() + 30) == .success
    }

    @Test(
        "what is submitted while the writer is busy is committed in one transaction; each submitter hears its own outcomes, in order"
    )
    func groupCommit() throws {
        let directory = try TemporaryDirectory()
        defer { try? directory.remove() }
        let seen = Seen()
        let store = try Self.open(directory, seen: seen)
        defer { store.close() }
        // The first commit's completion holds the writer's thread until the others are submitted.
        let (holding, release, done) = (DispatchSemaphore(value: 0), DispatchSemaphore(value: 0), DispatchSemaphore(value: 0))
        store.submit([Self.accept(1)]) { result in
            seen.completions.withLock { $0.append(("first", (try? result.get()) ?? [])) }
            holding.signal()
            release.wait()
        }
        #expect(Self.arrived(holding), "the first commit never completed")
        for (name, numbers) in [("second", [2, 3]), ("third", [4])] {
            store.submit(numbers.map(Self.accept)) { result in
                seen.completions.withLock { $0.append((name, (try? result.get()) ?? [])) }
                done.signal()
            }
        }
        release.signal()
        #expect(Self.arrived(done) && Self.arrived(done), "the later submissions never completed")

        let commits = seen.commits.withLock { $0 }
        #expect(commits.map(\.operations) == [1, 3], "one transaction for the first, one for the two submitted meanwhile")
        #expect(commits.map(\.accepted) == [[1], [2, 3, 4]])
        let completions = seen.completions.withLock { $0 }
        #expect(completions.map(\.name) == ["first", "second", "third"])
        #expect(
            completions.map(\.outcomes) == [
                [.queued(sequence: 1)], [.queued(sequence: 2), .queued(sequence: 3)], [.queued(sequence: 4)],
            ])
    }

    @Test(
        "close commits what was submitted before it; later submissions are refused as closed; the sequence goes on after reopening"
    )
    func closing() throws {
        let directory = try TemporaryDirectory()
        defer { try? directory.remove() }
        let seen = Seen()
        let store = try Self.open(directory, seen: seen)
        for n in 1...3 {
            store.submit([Self.accept(n)]) { result in
                seen.completions.withLock { $0.append(("before", (try? result.get()) ?? [])) }
            }
        }
        store.close()
        #expect(seen.completions.withLock { $0.flatMap(\.outcomes) } == (1...3).map { .queued(sequence: UInt64($0)) })
        let refused = Mutex<Result<[StoreOutcome], StoreError>?>(nil)
        store.submit([Self.accept(4)]) { result in refused.withLock { $0 = result } }
        #expect(refused.withLock { $0 } == .failure(.closed), "refused at once, on the submitter's thread")

        let reopened = try Self.open(directory, seen: Seen())
        defer { reopened.close() }
        let next = DispatchSemaphore(value: 0)
        let outcome = Mutex<[StoreOutcome]>([])
        reopened.submit([Self.accept(5)]) { result in
            outcome.withLock { $0 = (try? result.get()) ?? [] }
            next.signal()
        }
        #expect(Self.arrived(next))
        #expect(outcome.withLock { $0 } == [.queued(sequence: 4)], "numbered after the three kept, none reused")
    }
}

import APNsCore
import APNsTestSupport
import Foundation
import Logging
import Synchronization
import Testing

@testable import APNsStore

/// One bad operation must fail alone: its batch-mates commit (issue 13, item 1). Before, an
/// empty acknowledgement id made LMDB refuse its key (MDB_BAD_VALSIZE) and the whole group commit
/// failed, every provider in it getting 500.
@Suite("A poisoned operation in a full batch")
struct PoisonedBatchTests {
    func open(_ directory: TemporaryDirectory, checks: Bool = true) throws -> NotificationStore {
        var configuration = StoreConfiguration(directory: directory.appending("data"), durability: .relaxed)
        configuration.sweepInterval = .seconds(3600)
        configuration.checksOperations = checks
        return try NotificationStore(configuration: configuration, logger: Logger(label: "test"))
    }

    /// 200 accepts from 20 submitters, with bad acknowledgements mixed in, submitted at once so
    /// the writer takes them in one transaction. Returns each submitter's outcomes.
    func submitMixed(to store: NotificationStore, poison: [StoreOperation]) async throws -> [[StoreOutcome]] {
        let results = Mutex<[Int: [StoreOutcome]]>([:])
        let done = Mutex(0)
        let submitters = 20
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            for submitter in 0..<submitters {
                var operations: [StoreOperation] = (0..<10).map { n in
                    .accept(Notification.test(token: String(format: "%064x", submitter * 100 + n), payload: #"{"n":\#(n)}"#))
                }
                if submitter % 5 == 2 { operations.insert(contentsOf: poison, at: 5) }
                store.submit(operations) { result in
                    switch result {
                    case .success(let outcomes): results.withLock { $0[submitter] = outcomes }
                    case .failure(let error): results.withLock { $0[submitter] = [.refused("whole submission failed: \(error)")] }
                    }
                    if done.withLock({
                        $0 += 1
                        return $0
                    }) == submitters {
                        continuation.resume()
                    }
                }
            }
        }
        return results.withLock { r in (0..<submitters).map { r[$0] ?? [] } }
    }

    func check(_ outcomes: [[StoreOutcome]], poisonCount: Int, store: NotificationStore) throws {
        for (submitter, list) in outcomes.enumerated() {
            let refused = list.filter { if case .refused = $0 { return true } else { return false } }
            let queued = list.filter { if case .queued = $0 { return true } else { return false } }
            #expect(queued.count == 10, "submitter \(submitter): \(list)")
            #expect(refused.count == (submitter % 5 == 2 ? poisonCount : 0), "submitter \(submitter): \(list)")
        }
        #expect(try store.queuedCount() == 200)
    }

    @Test("refused before the transaction: an empty or over-long ack id fails alone, all 200 accepts commit")
    func checkedBeforeTheTransaction() async throws {
        let directory = try TemporaryDirectory()
        defer { try? directory.remove() }
        let store = try self.open(directory)
        let poison: [StoreOperation] = [.acknowledge(uniqueID: ""), .acknowledge(uniqueID: String(repeating: "x", count: 600))]
        let outcomes = try await self.submitMixed(to: store, poison: poison)
        try self.check(outcomes, poisonCount: 2, store: store)
        #expect(store.statistics.failedCommits == 0)
        store.close()
    }

    @Test("failing inside the transaction: the batch is retried operation by operation, and only the bad one fails")
    func isolatedAfterAFailedTransaction() async throws {
        let directory = try TemporaryDirectory()
        defer { try? directory.remove() }
        // Without the checks, the empty key reaches LMDB and fails the shared transaction.
        let store = try self.open(directory, checks: false)
        let outcomes = try await self.submitMixed(to: store, poison: [.acknowledge(uniqueID: "")])
        try self.check(outcomes, poisonCount: 1, store: store)
        #expect(store.statistics.failedCommits >= 1, "the shared transaction did fail, and was isolated")
        // Every accepted notification is there once, in its own queue, after the retries.
        let first = try store.queued(for: DeviceToken(hex: String(format: "%064x", 0))!)
        #expect(first.count == 1)
        store.close()
    }
}

import APNsCore
import APNsStore
import APNsTestSupport
import Foundation
import Logging
import Synchronization
import Testing

/// Submissions that may commit on their own thread (the accept path's) when the writer sleeps.
@Suite("Store writer: commits on the submitter's thread while the writer sleeps")
struct InlineCommitTests {
    func open(_ directory: TemporaryDirectory, _ durability: Durability) throws -> NotificationStore {
        var configuration = StoreConfiguration(directory: directory.appending("data"), durability: durability)
        configuration.sweepInterval = .seconds(3600)
        configuration.relaxedSyncInterval = .seconds(3600)
        return try NotificationStore(configuration: configuration, logger: Logger(label: "test"))
    }

    /// What completions have reported, from any thread.
    final class Shared<Value: Sendable>: Sendable {
        let value: Mutex<Value>
        init(_ value: Value) { self.value = Mutex(value) }
        func callAsFunction() -> Value { self.value.withLock { $0 } }
    }

    /// Submits one notification to `token`; whether its completion ran on this thread (the commit
    /// was made here) rather than on the writer's.
    func submit(_ store: NotificationStore, token: Int, commitHereIfIdle: Bool, outcomes: Shared<[StoreOutcome]>) -> Bool {
        let here = pthread_self()
        let ranHere = Shared(false)
        let notification = Notification.test(token: String(format: "%064x", token), payload: #"{"n":\#(token)}"#)
        store.submit([.accept(notification)], commitHereIfIdle: commitHereIfIdle) { result in
            if case .success(let outcome) = result { outcomes.value.withLock { $0 += outcome } }
            ranHere.value.withLock { $0 = pthread_equal(pthread_self(), here) != 0 }
        }
        return ranHere()
    }

    @Test(
        "relaxed: an idle writer's work is done on the submitter's thread; with four threads submitting, every notification is stored once, in sequence"
    )
    func relaxed() async throws {
        let directory = try TemporaryDirectory()
        defer { try? directory.remove() }
        let store = try self.open(directory, .relaxed)
        let outcomes = Shared<[StoreOutcome]>([])
        // The writer falls asleep once it finds nothing to do; a submission after that commits here.
        let attempts = Shared(0)
        let inline = await eventually {
            let attempt = attempts.next()
            return self.submit(store, token: 1_000_000 + attempt, commitHereIfIdle: true, outcomes: outcomes)
        }
        #expect(inline, "no submission found the writer asleep")
        // Four threads at once: some commit here, the rest wake the writer; nothing is lost or doubled.
        let threads = 4
        let each = 500
        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            for n in 0..<each { _ = self.submit(store, token: thread * each + n, commitHereIfIdle: true, outcomes: outcomes) }
        }
        let submitted = threads * each + attempts()
        #expect(await eventually { outcomes().count == submitted })
        let sequences = outcomes().compactMap { outcome -> UInt64? in
            if case .queued(let sequence) = outcome { return sequence }
            return nil
        }
        #expect(Set(sequences).count == sequences.count, "a sequence number was given twice")
        #expect(try store.queuedCount() == sequences.count)
        store.close()
    }

    @Test("durable: completions never run on the submitter's thread (the commit syncs to disk)")
    func durable() async throws {
        let directory = try TemporaryDirectory()
        defer { try? directory.remove() }
        let store = try self.open(directory, .durable)
        let outcomes = Shared<[StoreOutcome]>([])
        for attempt in 0..<20 {
            #expect(!self.submit(store, token: attempt, commitHereIfIdle: true, outcomes: outcomes))
            // Each after the last is done, when the writer has gone back to sleep.
            #expect(await eventually { outcomes().count == attempt + 1 })
        }
        store.close()
    }

    @Test(
        "relaxed: a submission made while another thread commits inline waits for that commit, then the writer (woken by it) commits it"
    )
    func duringInline() async throws {
        let directory = try TemporaryDirectory()
        defer { try? directory.remove() }
        let store = try self.open(directory, .relaxed)
        let outcomes = Shared<[StoreOutcome]>([])
        let (entered, release) = (DispatchSemaphore(value: 0), DispatchSemaphore(value: 0))
        let held = Shared(false)
        // Until one is committed inline (the writer asleep): that one's completion holds its commit.
        let attempts = Shared(0)
        let inline = await eventually {
            let attempt = attempts.next()
            let ranHere = Shared(false)
            DispatchQueue.global().async {
                let here = pthread_self()
                let notification = Notification.test(token: String(format: "%064x", attempt), payload: #"{"n":1}"#)
                store.submit([.accept(notification)], commitHereIfIdle: true) { result in
                    if case .success(let outcome) = result { outcomes.value.withLock { $0 += outcome } }
                    guard pthread_equal(pthread_self(), here) != 0 else { return }
                    ranHere.value.withLock { $0 = true }
                    held.value.withLock { $0 = true }
                    entered.signal()
                    release.wait()
                }
            }
            // Either its completion is holding the commit here, or it ran on the writer's thread.
            _ = await eventually { held() || outcomes().count == attempt }
            return ranHere()
        }
        #expect(inline, "no submission found the writer asleep")
        entered.wait()
        // Submitted while that commit is held: queued, not committed here, and not lost.
        let queuedHere = self.submit(store, token: 999_999, commitHereIfIdle: true, outcomes: outcomes)
        #expect(!queuedHere, "committed inline while another inline commit held the writer")
        #expect(outcomes().count == attempts(), "nothing commits while the inline commit holds the lock")
        release.signal()
        #expect(await eventually { outcomes().count == attempts() + 1 }, "the queued submission was never committed")
        store.close()
    }
}

extension InlineCommitTests.Shared where Value == Int {
    /// Counts one more and gives the new count.
    func next() -> Int {
        self.value.withLock {
            $0 += 1
            return $0
        }
    }
}

import APNsCore
import Dispatch
import Synchronization
import Testing

@testable import APNsInspection

/// The journal follows the store's commits off the writer's thread (issue 68): a commit handed
/// over is applied by the journal's follower, or first by whatever reads or changes the journal,
/// so that a read after an answer shows what was answered (read-your-writes) however far behind
/// the follower is.
@Suite("The journal's follower")
struct JournalFollowerTests {
    static func accepted(_ n: Int, connected: Bool = false) -> StoreCommit {
        StoreCommit(
            operations: 1, duration: .zero,
            changes: [
                .accepted(JournalStateTests.notification(n), sequence: UInt64(n), at: 0, status: nil, connected: connected)
            ])
    }

    /// A commit of more changes than are applied where they were made (``Journal/inlineLimit``):
    /// handed over to the follower. The padding changes nothing.
    static func handedOver(_ n: Int) -> StoreCommit {
        var commit = Self.accepted(n)
        commit.changes += Array(repeating: .unkept(sequences: []), count: Journal.inlineLimit)
        return commit
    }

    /// Holds the journal's follower until the returned semaphore is signalled.
    static func hold(_ journal: Journal) -> DispatchSemaphore {
        let (held, release) = (DispatchSemaphore(value: 0), DispatchSemaphore(value: 0))
        journal.follower.async {
            held.signal()
            release.wait()
        }
        held.wait()
        return release
    }

    @Test("with the follower held, every read and change after a commit is handed over sees it, in order")
    func readsSeeWhatWasHandedOver() {
        let metrics = EmulatorMetrics()
        let journal = Journal(capacity: 16, console: metrics.console)
        let release = Self.hold(journal)
        defer { release.signal() }
        for n in 1...3 { journal.apply(Self.handedOver(n)) }
        #expect(journal.pending.withLock { $0.count } == 3, "the commits wait for the follower")
        #expect(journal.entry(uniqueID: "unique-2")?.status == .queued)
        #expect(journal.pending.withLock { $0.isEmpty }, "the read applied them")
        // A change to an entry comes after the commit that brought it, though nothing read between.
        journal.apply(Self.handedOver(4))
        // A small commit waits behind one handed over, not applied before it.
        journal.apply(
            StoreCommit(
                operations: 1, duration: .zero,
                changes: [.left(.whole(JournalStateTests.notification(4)), sequence: 4, status: .delivered, at: 9)]))
        journal.mark(uniqueID: "unique-4", fault: FaultMark(ruleID: "r", action: "delay"))
        let fourth = journal.entry(uniqueID: "unique-4")
        #expect(fourth?.status == .delivered && fourth?.fault?.ruleID == "r")
        // The Console's counts are the journal's: settle() is the barrier /metrics reads behind.
        journal.apply(Self.accepted(5))
        journal.settle()
        let text = String(decoding: metrics.render(queueDepth: 0, devicesConnected: 0), as: UTF8.self)
        #expect(
            CommitTallyTests.sample(#"apns_received_by_apns_total{push_type="alert",priority="10"}"#, in: text) == 5, "\(text)")
        #expect(CommitTallyTests.sample(#"apns_stored_device_offline_total{push_type="alert",priority="10"}"#, in: text) == 5)
    }

    @Test("with nothing reading, the follower applies a commit and its listeners hear it", .timeLimit(.minutes(1)))
    func followerApplies() async {
        let journal = Journal(capacity: 16)
        let heard = await withCheckedContinuation { (continuation: CheckedContinuation<String?, Never>) in
            let once = Mutex(false)
            _ = journal.subscribe { event in
                guard event.kind == "accepted", !once.withLock({ $0 }) else { return }
                once.withLock { $0 = true }
                continuation.resume(returning: event.entry?.uniqueID)
            }
            journal.apply(Self.handedOver(7))
        }
        #expect(heard == "unique-7")
        #expect(journal.pending.withLock { $0.isEmpty })
    }

    @Test("past the limit of commits waiting, the thread that hands one over applies them itself")
    func boundedWhileHeld() {
        let journal = Journal(capacity: 4096)
        let release = Self.hold(journal)
        defer { release.signal() }
        for n in 1...(Journal.pendingLimit + 1) { journal.apply(Self.handedOver(n)) }
        // Checked without a read (a read would apply them too): nothing waits.
        #expect(journal.pending.withLock { $0.isEmpty })
        #expect(
            journal.read { state in state.newestFirst().first { _ in true }?.uniqueID } == "unique-\(Journal.pendingLimit + 1)")
    }

    @Test("a small commit with nothing waiting is applied where it was made: its event is heard before apply returns")
    func smallCommitsApplyHere() {
        let journal = Journal(capacity: 16)
        let release = Self.hold(journal)
        defer { release.signal() }
        let heard = Mutex<[String]>([])
        _ = journal.subscribe { event in heard.withLock { $0.append("\(event.kind) \(event.entry?.uniqueID ?? "")") } }
        journal.apply(Self.accepted(1))
        #expect(heard.withLock { $0 } == ["accepted unique-1"], "applied on this thread, the follower held")
        #expect(journal.pending.withLock { $0.isEmpty })
        // Once one waits for the follower, the next small one waits behind it.
        journal.apply(Self.handedOver(2))
        journal.apply(Self.accepted(3))
        #expect(journal.pending.withLock { $0.count } == 2 && heard.withLock { $0.count } == 1)
        journal.settle()
        #expect(heard.withLock { $0 } == ["accepted unique-1", "accepted unique-2", "accepted unique-3"])
    }
}

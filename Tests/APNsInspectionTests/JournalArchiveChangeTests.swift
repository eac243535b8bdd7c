import APNsCore
import APNsDevice
import Synchronization
import Testing

@testable import APNsInspection

/// What happens to a notification after its entry left the journal's ring: the ring holds only
/// the newest whole, so under load the phone's presentation, the user's response, the power
/// state's hold, a fault's mark and a long poll's match come for entries already in the archive,
/// and must land there as they would in the ring (the inbox and the admin API read both alike).
@Suite("Changes and waits past the journal's ring")
struct JournalArchiveChangeTests {
    enum Failure: Error { case notAccepted }

    static func shown() -> Presentation {
        var banner = Presentation()
        banner.shown = true
        banner.style = .banner
        return banner
    }

    @Test("the phone's presentation, a power hold, a fault mark and the simulator reach an archived entry, with their events")
    func changes() throws {
        let (journal, source) = JournalArchiveTests.journal(50)
        let events = Mutex<[(kind: String, id: String?, shown: Bool)]>([])
        let token = journal.subscribe { event in
            events.withLock { $0.append((event.kind, event.entry?.uniqueID, event.entry?.presentation?.shown == true)) }
        }
        defer { journal.unsubscribe(token) }
        let kept = Mutex<[UInt64]>([])
        journal.keepPhoneRecords { sequence, _ in kept.withLock { $0.append(sequence) } }
        // unique-7 left the ring of 3 long ago.
        #expect(journal.read { $0.entry(uniqueID: "unique-7") } == nil)

        journal.presented(uniqueID: "unique-7", Self.shown())
        journal.held(uniqueID: "unique-7", at: 1234)
        journal.mark(uniqueID: "unique-7", fault: FaultMark(ruleID: "rule-1", action: "delay"))
        journal.forwarded(uniqueID: "unique-7", SimulatorForward(device: "booted", status: "forwarded", exitCode: 0, message: ""))

        let entry = try #require(journal.entry(uniqueID: "unique-7"))
        #expect(entry.presentation?.shown == true && entry.presentation?.style == .banner)
        #expect(entry.marks.contains(.storedPower) && entry.heldAt == 1234)
        #expect(entry.fault?.ruleID == "rule-1" && entry.simulator?.status == "forwarded")
        // Its record is still the store's: payload and status as they were.
        #expect(entry.status == .queued)
        guard case .accepted(let notification) = entry.push else { throw Failure.notAccepted }
        #expect(String(decoding: notification.payload, as: UTF8.self) == #"{"n":7}"#)
        // The index's outcome follows: a filter by outcome finds it without reading every entry.
        let shown = journal.page(matching: JournalFilter(outcome: .shown), limit: 10, before: nil)
        #expect(shown.total == 1 && shown.items.map(\.uniqueID) == ["unique-7"])
        // Listeners heard it as they would have in the ring; the store keeps the phone's record.
        let heard = events.withLock { $0 }
        #expect(heard.contains { $0.kind == "presented" && $0.id == "unique-7" && $0.shown })
        #expect(heard.contains { $0.kind == "simulator" && $0.id == "unique-7" })
        #expect(kept.withLock { $0 } == [7])
        // The user's response keeps the presentation beside it.
        journal.responded(
            uniqueID: "unique-7",
            UserResponse(
                uniqueID: "unique-7", action: "open", text: nil, context: .banner, reported: true, launched: false,
                appState: .background, at: 99))
        let responded = try #require(journal.entry(uniqueID: "unique-7"))
        #expect(responded.response?.action == "open" && responded.presentation?.shown == true)
        // One read back for each change, none for a unique id the journal never had.
        let reads = source.reads.withLock { $0 }
        journal.presented(uniqueID: "unique-none", Self.shown())
        #expect(source.reads.withLock { $0 } == reads)
        #expect(journal.page(matching: JournalFilter(outcome: .shown), limit: 10, before: nil).total == 1)
    }

    @Test("a wait from a cursor finds the oldest match in the archive before the ring's, and one that comes later")
    func waits() throws {
        let (journal, _) = JournalArchiveTests.journal(20)
        let after = try #require(journal.id(of: "unique-4"))
        // "odd": 5 is the oldest after 4, archived; the ring (18...20) holds 19 too.
        let odd = journal.wait(for: JournalFilter(topic: "odd"), after: after) { _ in Issue.record("answered later") }
        #expect(odd.found?.uniqueID == "unique-5" && odd.token == nil)
        #expect(journal.pendingWaits == 0)
        // A search the index cannot settle reads back batch after batch (256 each) until one holds it.
        let (long, _) = JournalArchiveTests.journal(1000)
        let first = try #require(long.id(of: "unique-1"))
        let deep = long.wait(for: JournalFilter(search: #""n":900}"#), after: first) { _ in Issue.record("answered later") }
        #expect(deep.found?.uniqueID == "unique-900" && deep.token == nil && long.pendingWaits == 0)
        // Nothing archived matches: the ring's.
        let ring = try #require(journal.id(of: "unique-18"))
        #expect(journal.wait(for: JournalFilter(topic: "odd"), after: ring) { _ in }.found?.uniqueID == "unique-19")
        // Nothing at all: the waiter is kept and answered by the next that matches.
        let answered = Mutex<String?>(nil)
        let waited = journal.wait(for: JournalFilter(topic: "odd"), after: try #require(journal.id(of: "unique-19"))) { entry in
            answered.withLock { $0 = entry.uniqueID }
        }
        #expect(waited.found == nil && waited.token != nil && journal.pendingWaits == 1)
        let next = JournalStateTests.notification(21, token: JournalArchiveTests.token, topic: "odd")
        journal.apply(
            StoreCommit(
                operations: 1, duration: .zero, changes: [.accepted(next, sequence: 21, at: 0, status: nil, connected: false)]))
        // The journal's follower answers the wait; settle() is the barrier a test waits behind.
        journal.settle()
        #expect(answered.withLock { $0 } == "unique-21" && journal.pendingWaits == 0)
    }
}

import APNsCore
import Synchronization
import Testing

@testable import APNsInspection

/// The journal's archive: with a store, every entry is indexed as it is added (the log's index,
/// 64 bytes each), read back from the store when asked, and forgotten when the store forgets it.
@Suite("The journal's archive")
struct JournalArchiveTests {
    /// A store as the archive sees it: records by key, and how many reads it served.
    final class Source: JournalArchiveSource {
        let records = Mutex<[JournalRecordKey: JournalRecord]>([:])
        let reads = Mutex(0)

        func records(_ keys: [JournalRecordKey]) -> [JournalRecord?] {
            self.reads.withLock { $0 += keys.count }
            return self.records.withLock { records in keys.map { records[$0] } }
        }

        /// The store's scan: payload and unique id, as the real one looks in them.
        func sequences(containing text: [UInt8]) -> Set<UInt64>? {
            let wanted = String(decoding: text, as: UTF8.self)
            return self.records.withLock { records in
                Set(
                    records.compactMap { key, record -> UInt64? in
                        guard case .notification(_, let sequence) = key, case .notification(let notification) = record else {
                            return nil
                        }
                        let fields = [String(decoding: notification.payload, as: UTF8.self), notification.uniqueID]
                        return fields.contains { $0.lowercased().contains(wanted) } ? sequence : nil
                    })
            }
        }

        func keep(_ notification: Notification, sequence: UInt64) {
            self.records.withLock { $0[.notification(notification.token, sequence: sequence)] = .notification(notification) }
        }
    }

    static let token = String(repeating: "cd", count: 32)

    /// A journal with a ring of 3 and an archive, holding notifications 1...`count` (sequence n,
    /// topics alternating), each kept by the source.
    static func journal(_ count: Int) -> (Journal, Source) {
        let journal = Journal(capacity: 3)
        let source = Source()
        journal.useArchive(source)
        for n in 1...count {
            let notification = JournalStateTests.notification(n, token: Self.token, topic: n.isMultiple(of: 2) ? "even" : "odd")
            source.keep(notification, sequence: UInt64(n))
            journal.apply(
                StoreCommit(
                    operations: 1, duration: .zero,
                    changes: [.accepted(notification, sequence: UInt64(n), at: 0, status: nil, connected: false)]))
        }
        return (journal, source)
    }

    @Test("totals come from the index alone; only the page's items are read back")
    func totalsWithoutReads() {
        let (journal, source) = Self.journal(1000)
        let page = journal.page(matching: JournalFilter(topic: "odd"), limit: 5, before: nil)
        #expect(page.total == 500)
        #expect(page.items.map(\.uniqueID) == ["unique-999", "unique-997", "unique-995", "unique-993", "unique-991"])
        // The journal holds no notification whole: the page's five, and one to spare, were read; not 500.
        #expect(source.reads.withLock { $0 } == 6)
        #expect(journal.page(matching: JournalFilter(topic: "nowhere"), limit: 5, before: nil).total == 0)
        #expect(
            journal.page(matching: JournalFilter(token: String(repeating: "ee", count: 32)), limit: 5, before: nil).total == 0)
    }

    @Test("a status change reaches an archived entry, its filters and its outcome")
    func statusChange() {
        let (journal, _) = Self.journal(10)
        let notification = JournalStateTests.notification(2, token: Self.token, topic: "even")
        journal.apply(
            StoreCommit(
                operations: 1, duration: .zero, changes: [.left(.whole(notification), sequence: 2, status: .delivered, at: 77)]))
        let entry = journal.entry(uniqueID: "unique-2")
        #expect(entry?.status == .delivered && entry?.statusAt == 77)
        #expect(
            journal.page(matching: JournalFilter(status: .delivered), limit: 10, before: nil).items.map(\.uniqueID) == [
                "unique-2"
            ])
        #expect(journal.page(matching: JournalFilter(outcome: .waiting), limit: 100, before: nil).total == 9)
    }

    @Test("a status change finds its notification by sequence, with gaps between the sequences, and none for one not there")
    func statusBySequenceWithGaps() {
        let journal = Journal(capacity: 3)
        let source = Source()
        journal.useArchive(source)
        for n in 1...50 {
            let notification = JournalStateTests.notification(n, token: Self.token)
            source.keep(notification, sequence: UInt64(3 * n))
            journal.apply(
                StoreCommit(
                    operations: 1, duration: .zero,
                    changes: [.accepted(notification, sequence: UInt64(3 * n), at: 0, status: nil, connected: false)]))
        }
        let left = { (sequence: UInt64, at: Int64) in
            StoreChange.left(
                .summary(token: DeviceToken(hex: Self.token)!, pushType: .alert, priority: .immediate), sequence: sequence,
                status: .expired, at: at)
        }
        journal.apply(
            StoreCommit(
                operations: 1, duration: .zero, changes: [left(3, 1), left(30, 2), left(150, 3), left(31, 4), left(151, 5)]))
        let expired = journal.page(matching: JournalFilter(status: .expired), limit: 10, before: nil).items
        #expect(expired.map(\.uniqueID) == ["unique-50", "unique-10", "unique-1"])
        #expect(expired.map(\.statusAt) == [3, 2, 1])
    }

    @Test(
        "a notification replaced after the ring pushed it out still has its event, read back from the store's log (the store tells only its token, push type and priority)"
    )
    func replacedEventReadBack() {
        let (journal, source) = Self.journal(10)
        let events = Mutex<[Journal.Event]>([])
        _ = journal.subscribe { event in events.withLock { $0.append(event) } }
        let older = JournalStateTests.notification(2, token: Self.token, topic: "even")
        let summary = LeftNotification.summary(token: older.token, pushType: older.pushType, priority: older.priority)
        let readsBefore = source.reads.withLock { $0 }
        journal.apply(
            StoreCommit(operations: 1, duration: .zero, changes: [.left(summary, sequence: 2, status: .replaced, at: 88)]))
        journal.settle()
        let event = events.withLock { $0.last }
        #expect(event?.kind == "replaced")
        #expect(event?.entry?.uniqueID == "unique-2" && event?.entry?.status == .replaced && event?.entry?.statusAt == 88)
        #expect(source.reads.withLock { $0 } == readsBefore + 1)
        #expect(journal.entry(uniqueID: "unique-2")?.status == .replaced)
        // With no one listening nothing is read back.
        let quiet = Self.journal(10)
        let readsQuiet = quiet.1.reads.withLock { $0 }
        quiet.0.apply(
            StoreCommit(operations: 1, duration: .zero, changes: [.left(summary, sequence: 2, status: .replaced, at: 88)]))
        quiet.0.settle()
        #expect(quiet.1.reads.withLock { $0 } == readsQuiet)
        #expect(quiet.0.entry(uniqueID: "unique-2")?.status == .replaced)
    }

    @Test(
        "what the store forgets or drops without a record leaves the journal; a young one dropped for room is held whole, as the store last had it"
    )
    func forgetting() {
        let (journal, _) = Self.journal(10_000)
        let forgotten = (1...9_000).map { UInt64($0) }
        journal.apply(StoreCommit(operations: 0, duration: .zero, changes: [.forgotten(sequences: forgotten, rejections: [])]))
        #expect(journal.page(matching: JournalFilter(), limit: 1, before: nil).total == 1000)
        #expect(journal.entry(uniqueID: "unique-9000") == nil && journal.entry(uniqueID: "unique-9001") != nil)
        // Dropped for room, as the store tells it (each whole, then their sequences unkept): an old
        // one goes, one of the newest 3 (the journal's size) stays, at its new status.
        let drops = [9001, 10_000].map { n in
            StoreChange.left(
                .whole(JournalStateTests.notification(n, token: Self.token, topic: n.isMultiple(of: 2) ? "even" : "odd")),
                sequence: UInt64(n), status: .dropped, at: 99)
        }
        journal.apply(StoreCommit(operations: 0, duration: .zero, changes: drops + [.unkept(sequences: [9001, 10_000])]))
        #expect(journal.entry(uniqueID: "unique-9001") == nil)
        let kept = journal.entry(uniqueID: "unique-10000")
        #expect(
            kept?.status == .dropped && kept?.statusAt == 99 && kept?.marks.contains(.unkept) == true,
            "\(String(describing: kept))")
        #expect(journal.page(matching: JournalFilter(), limit: 1, before: nil).total == 999)
        // Paging still walks the rest without a gap.
        var seen: [String] = []
        var cursor: UInt64?
        repeat {
            let page = journal.page(matching: JournalFilter(), limit: 97, before: cursor)
            seen += page.items.map(\.uniqueID)
            cursor = page.next
        } while cursor != nil
        #expect(seen.count == 999 && Set(seen).count == 999 && seen.last == "unique-9002")
    }

    @Test(
        "an entry is archived as it stands when the ring pushes it out, indexed by what it came with, and so is one the ring held before there was an archive"
    )
    func archivedAsItStands() {
        let (journal, source) = (Journal(capacity: 3), Source())
        let early = String(repeating: "ee", count: 32)
        func accept(_ n: Int, token: String, topic: String) {
            let notification = JournalStateTests.notification(n, token: token, topic: topic)
            source.keep(notification, sequence: UInt64(n))
            journal.apply(
                StoreCommit(
                    operations: 1, duration: .zero,
                    changes: [.accepted(notification, sequence: UInt64(n), at: 0, status: nil, connected: false)]))
        }
        // Two before the archive, then the ring's third, delivered while the ring still holds it.
        accept(1, token: early, topic: "early")
        accept(2, token: early, topic: "early")
        journal.useArchive(source)
        accept(3, token: Self.token, topic: "odd")
        let third = JournalStateTests.notification(3, token: Self.token, topic: "odd")
        journal.apply(
            StoreCommit(operations: 1, duration: .zero, changes: [.left(.whole(third), sequence: 3, status: .delivered, at: 55)]))
        for n in 4...9 { accept(n, token: Self.token, topic: n.isMultiple(of: 2) ? "even" : "odd") }
        // 1 and 2 were moved from the ring into the archive when it came; every later one is indexed as it is added.
        #expect(
            journal.page(matching: JournalFilter(token: early), limit: 5, before: nil).items.map(\.uniqueID) == [
                "unique-2", "unique-1",
            ])
        #expect(journal.page(matching: JournalFilter(topic: "early"), limit: 5, before: nil).total == 2)
        #expect(journal.page(matching: JournalFilter(topic: "odd"), limit: 5, before: nil).total == 4)
        let delivered = journal.page(matching: JournalFilter(status: .delivered), limit: 5, before: nil).items
        #expect(delivered.map(\.uniqueID) == ["unique-3"] && delivered.first?.statusAt == 55)
        #expect(journal.page(matching: JournalFilter(outcome: .waiting), limit: 5, before: nil).total == 8)
        #expect(journal.page(matching: JournalFilter(token: Self.token, status: .queued), limit: 10, before: nil).total == 6)
    }

    @Test(
        "a refusal is held whole while young (the store writes its record after the journal has it), then read back from the store"
    )
    func youngRefusal() {
        let (journal, source) = Self.journal(5)
        var request = PushRequest(path: "/3/device/\(Self.token)")
        request.topic = "odd"
        let push = RejectedPush(request, id: "r1", apnsID: nil, reason: "BadTopic", httpStatus: 400, receivedAt: 2_000)
        journal.rejected(push)
        // Not in the store yet: the journal shows it, from what it holds, by id, in a page and in a filter.
        #expect(journal.entry(uniqueID: "r1")?.status == .rejected)
        #expect(journal.page(matching: JournalFilter(), limit: 1, before: nil).items.map(\.uniqueID) == ["r1"])
        #expect(journal.page(matching: JournalFilter(status: .rejected), limit: 5, before: nil).total == 1)
        // Its record is written; three more entries (the journal's size) and it is read back from the store.
        source.records.withLock {
            $0[.rejection(receivedAt: 2_000, id: "r1")] = .rejection(
                RejectedPush(request, id: "r1", apnsID: nil, reason: "BadTopic", httpStatus: 400, receivedAt: 2_000), nil)
        }
        for n in 6...8 {
            let notification = JournalStateTests.notification(n, token: Self.token, topic: "even")
            source.keep(notification, sequence: UInt64(n))
            journal.apply(
                StoreCommit(
                    operations: 1, duration: .zero,
                    changes: [.accepted(notification, sequence: UInt64(n), at: 0, status: nil, connected: false)]))
        }
        #expect(journal.entry(uniqueID: "r1")?.status == .rejected)
        // Once the store no longer has it, neither does the journal.
        source.records.withLock { $0[.rejection(receivedAt: 2_000, id: "r1")] = nil }
        #expect(journal.entry(uniqueID: "r1") == nil)
    }

    @Test("q: the store's scan settles the totals; only the page is read back; a token's hex is looked in apart")
    func searchSettled() {
        let (journal, source) = Self.journal(1000)
        let page = journal.page(matching: JournalFilter(search: #""N":7"#), limit: 3, before: nil)
        // 7, 70...79, 700...799: 111 payloads hold "n":7.
        #expect(page.total == 111)
        #expect(page.items.map(\.uniqueID) == ["unique-799", "unique-798", "unique-797"])
        #expect(source.reads.withLock { $0 } <= 4)
        let next = journal.page(matching: JournalFilter(search: #""n":7"#), limit: 200, before: page.next)
        #expect(next.items.count == 108 && next.next == nil && next.items.last?.uniqueID == "unique-7")
        #expect(journal.page(matching: JournalFilter(search: "cdcdcd"), limit: 1, before: nil).total == 1000)
        #expect(journal.page(matching: JournalFilter(search: "nothing like it"), limit: 1, before: nil).total == 0)
    }

    @Test("token ids: tokens alike at both ends (one home slot) stay apart, through the table's growth")
    func tokenIDs() throws {
        var interner = TokenInterner()
        let tokens = try (0..<3000).map { n in
            try #require(
                DeviceToken(
                    hex: String(repeating: "ab", count: 8) + String(repeating: "0", count: 32 - String(n, radix: 16).count)
                        + String(n, radix: 16) + String(repeating: "cd", count: 8)))
        }
        let ids = tokens.map { interner.id($0) }
        #expect(ids == (0..<3000).map { UInt32($0) })
        #expect(tokens.map { interner.id($0) } == ids && tokens.map { interner.existing($0) } == ids)
        #expect(interner[1234] == tokens[1234])
        #expect(interner.existing(try #require(DeviceToken(hex: String(repeating: "ef", count: 32)))) == nil)
        // A load test's tokens are counters (`%064x`): they spread over the table, not down one run.
        var counters = TokenInterner()
        for n in 1...10_000 {
            let hex = String(n, radix: 16)
            _ = counters.id(try #require(DeviceToken(hex: String(repeating: "0", count: 64 - hex.count) + hex)))
        }
        #expect(counters.longestProbe < 40)
    }

    @Test("DELETE by text reads the candidates back and removes the ones it is in")
    func removeByText() {
        let (journal, source) = Self.journal(50)
        let removed = journal.remove(matching: JournalFilter(search: #"{"n":7}"#))
        #expect(removed.count == 1 && removed.keys == [.notification(DeviceToken(hex: Self.token)!, sequence: 7)])
        #expect(journal.entry(uniqueID: "unique-7") == nil)
        #expect(journal.page(matching: JournalFilter(), limit: 1, before: nil).total == 49)
        // A record the store no longer holds is left out of a page rather than shown empty.
        source.records.withLock { $0[.notification(DeviceToken(hex: Self.token)!, sequence: 5)] = nil }
        #expect(!journal.page(matching: JournalFilter(), limit: 100, before: nil).items.contains { $0.uniqueID == "unique-5" })
    }
}

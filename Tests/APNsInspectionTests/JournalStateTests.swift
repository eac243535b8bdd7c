import APNsCore
import Testing

@testable import APNsInspection

@Suite("Journal contents")
struct JournalStateTests {
    static func notification(
        _ n: Int, token: String = String(repeating: "ab", count: 32), topic: String = "com.example.app"
    ) -> Notification {
        Notification(
            apnsID: "id-\(n)", uniqueID: "unique-\(n)", token: DeviceToken(hex: token)!, topic: topic, pushType: .alert,
            priority: .immediate, expiration: nil, collapseID: nil, payload: Array(#"{"n":\#(n)}"#.utf8),
            receivedAt: 1_000 + Int64(n), source: .http2
        )
    }

    @Test("newest first; the oldest entries leave a full ring and their ids are forgotten")
    func ring() {
        var state = JournalState(capacity: 3)
        for n in 1...5 { _ = state.append(.accepted(Self.notification(n)), status: .queued, sequence: UInt64(n)) }
        #expect(state.newestFirst().map(\.uniqueID) == ["unique-5", "unique-4", "unique-3"])
        #expect(state.entry(uniqueID: "unique-2") == nil)
        #expect(state.entry(uniqueID: "unique-3")?.id == 3)
        #expect(state.update(sequence: 1, status: .delivered, at: 9) == nil)
    }

    @Test("status updates in place; pages count every match and carry a cursor to the next")
    func pages() {
        var state = JournalState(capacity: 100)
        for n in 1...7 {
            _ = state.append(
                .accepted(Self.notification(n, topic: n.isMultiple(of: 2) ? "even" : "odd")), status: .queued, sequence: UInt64(n)
            )
        }
        let updated = state.update(sequence: 4, status: .delivered, at: 42)
        #expect(updated?.status == .delivered && updated?.statusAt == 42)

        let odd = JournalFilter(topic: "odd")
        let first = state.page(matching: odd, limit: 3, before: nil)
        #expect(first.total == 4)
        #expect(first.items.map(\.uniqueID) == ["unique-7", "unique-5", "unique-3"])
        let second = state.page(matching: odd, limit: 3, before: first.next)
        #expect(second.items.map(\.uniqueID) == ["unique-1"])
        #expect(second.next == nil)
        #expect(
            state.page(matching: JournalFilter(status: .delivered), limit: 10, before: nil).items.map(\.uniqueID) == ["unique-4"])
        #expect(state.page(matching: JournalFilter(since: 1_006), limit: 10, before: nil).total == 2)
    }

    @Test("a wait is satisfied by the oldest accepted match after its bound, never by a rejection unless asked")
    func waits() {
        var state = JournalState(capacity: 10)
        let token = String(repeating: "cd", count: 32)
        var request = PushRequest(path: "/3/device/\(token)")
        request.topic = "com.example.app"
        _ = state.append(
            .rejected(RejectedPush(request, id: "r1", apnsID: nil, reason: "BadTopic", httpStatus: 400, receivedAt: 1)),
            status: .rejected)
        let filter = JournalFilter(token: token)
        #expect(state.oldest(matching: filter, after: 0) == nil)
        #expect(state.oldest(matching: JournalFilter(token: token, status: .rejected), after: 0)?.uniqueID == "r1")
        _ = state.append(.accepted(Self.notification(1, token: token)), status: .queued)
        _ = state.append(.accepted(Self.notification(2, token: token)), status: .queued)
        #expect(state.oldest(matching: filter, after: 0)?.uniqueID == "unique-1")
        #expect(state.oldest(matching: filter, after: 2)?.uniqueID == "unique-2")
        #expect(state.oldest(matching: filter, after: 3) == nil)
    }

    @Test("remove takes only matching entries; removeAll empties and ids keep growing")
    func remove() {
        var state = JournalState(capacity: 10)
        for n in 1...4 { _ = state.append(.accepted(Self.notification(n, topic: n < 3 ? "a" : "b")), status: .queued) }
        #expect(state.remove(matching: JournalFilter(topic: "a")).count == 2)
        #expect(state.newestFirst().map(\.uniqueID) == ["unique-4", "unique-3"])
        #expect(state.entry(uniqueID: "unique-1") == nil)
        state.removeAll()
        #expect(Array(state.newestFirst()).isEmpty)
        #expect(state.append(.accepted(Self.notification(9)), status: .queued).id == 5)
    }
}

import APNsCore
import Testing

@testable import APNsInspection

/// Channel requests and broadcasts kept in the store beside the refusals (issue 53: the journal
/// keeps everything across restarts): encoded whole, read back as they were, forgotten when the
/// store trims them, old or young alike.
@Suite("The journal's kept requests")
struct KeptRequestTests {
    static func broadcast(_ index: Int) -> BroadcastRecord {
        var record = BroadcastRecord(id: "broadcast-\(index)", receivedAt: Int64(1000 + index), httpStatus: 200)
        (record.operation, record.method, record.path) = ("publish", "POST", "/4/broadcasts/apps/com.example.app")
        (record.bundleID, record.channelID, record.pushType, record.priority) = (
            "com.example.app", "Y2hhbm5lbA==", "LiveActivity", "5"
        )
        record.body = Array(#"{"aps":{"event":"update"}}"#.utf8)
        record.warnings = ["a warning", "another"]
        (record.port, record.fanOut, record.stored) = (2197, 2, true)
        record.outcomes = [
            BroadcastActivityOutcome(deviceID: "device-1", activityID: "activity-1", outcome: "updated", code: nil, reason: nil),
            BroadcastActivityOutcome(
                deviceID: "device-2", activityID: "activity-2", outcome: "ignored", code: "stale", reason: "older"),
        ]
        return record
    }

    @Test("a broadcast's record reads back whole: request, answer, lint, each activity's outcome, the fault that shaped it")
    func roundTrip() throws {
        let record = Self.broadcast(1)
        let encoded = BroadcastRecordCodec.encode(record, fault: FaultMark(ruleID: "fault-1", action: "delay"))
        let kept = Inspection.keptRequests(from: [encoded, [9, 9, 9]])
        #expect(kept.count == 1, "a record of no known kind is skipped")
        guard case .broadcast(let read, let fault) = try #require(kept.first) else {
            Issue.record("read back as a refusal")
            return
        }
        #expect(fault == FaultMark(ruleID: "fault-1", action: "delay"))
        #expect(read.id == record.id && read.receivedAt == record.receivedAt && read.httpStatus == 200)
        #expect(read.operation == "publish" && read.path == record.path && read.channelID == record.channelID)
        #expect(read.body == record.body && read.warnings == record.warnings && read.fanOut == 2 && read.stored == true)
        #expect(read.outcomes.map(\.outcome) == ["updated", "ignored"] && read.outcomes[1].code == "stale")
        #expect(read.outcomes[1].reason == "older" && read.outcomes[0].code == nil)
    }

    @Test("seeded in arrival order; what the store trims leaves the journal, old or young")
    func forgotten() {
        let journal = Journal(capacity: 3)
        journal.useArchive(JournalArchiveTests.Source())
        let records = (1...6).map { BroadcastRecordCodec.encode(Self.broadcast($0), fault: nil) }
        journal.seed(kept: Inspection.keptRequests(from: records.reversed())) {
            (_: (UInt64, LogStatus?, Int64?, Notification) -> Void) in
        }
        #expect((1...6).allSatisfy { journal.entry(uniqueID: "broadcast-\($0)") != nil })
        #expect(journal.entry(uniqueID: "broadcast-1")?.receivedAt == 1001)
        // The store trims the oldest first: two old ones, and one of the newest 3 (the journal's size) out of turn.
        journal.apply(
            StoreCommit(
                operations: 0, duration: .zero,
                changes: [.forgotten(sequences: [], rejections: ["broadcast-1", "broadcast-2", "broadcast-4"])]))
        #expect((1...6).map { journal.entry(uniqueID: "broadcast-\($0)") != nil } == [false, false, true, false, true, true])
    }
}

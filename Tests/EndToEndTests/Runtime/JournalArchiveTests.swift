import APNsTestSupport
import Foundation
import Testing

/// The journal past its ring (issue 53: "after a load test the inbox and `GET
/// /api/v1/notifications` show the last 10,000 ... The admin API's filters, `q` search, totals
/// and paging work over all of it"): with `--journal-size 4`, everything the store keeps is still
/// listed, counted, filtered, searched, read by id, changed and deleted, before and after a restart.
@Suite("The journal past its ring")
struct JournalArchiveTests {
    static let token = String(repeating: "7a", count: 32)
    static let other = String(repeating: "7b", count: 32)

    /// What was sent, oldest first: its journal id, topic, token, and whether it was refused.
    struct Sent {
        var id: String?
        var topic: String
        var token: String
        var refused: Bool
    }

    /// 12 accepted (topics alternating, every third to the other token, the first with an
    /// expiration a clock move passes) and 3 refused, in one order.
    static func send(to emulator: RunningEmulator) async throws -> [Sent] {
        let client = try await emulator.http2Client()
        var sent: [Sent] = []
        for index in 0..<15 {
            let topic = index % 2 == 0 ? "com.example.even" : "com.example.odd"
            let token = index % 3 == 0 ? Self.other : Self.token
            if index % 5 == 4 {
                let refused = try await client.push(token: token, topic: topic, priority: 7)
                #expect(refused.status == 400)
                sent.append(Sent(id: nil, topic: topic, token: token, refused: true))
            } else {
                let expiration = index == 0 ? [("apns-expiration", String(Int(Date().timeIntervalSince1970) + 3600))] : []
                let id = try await client.accepted(
                    token: token, topic: topic, headers: expiration, json: #"{"aps":{"alert":"archived number \#(index)"}}"#)
                sent.append(Sent(id: id, topic: topic, token: token, refused: false))
            }
        }
        try await client.close()
        return sent
    }

    /// Every page of `query`, `limit` at a time, following `next`: the ids, and each page's total.
    static func pages(_ emulator: RunningEmulator, _ query: String, limit: Int) async throws -> (ids: [String], totals: Set<Int>) {
        var ids: [String] = []
        var totals: Set<Int> = []
        var cursor: String?
        repeat {
            let page = try await emulator.adminObject(
                "/api/v1/notifications?limit=\(limit)" + (query.isEmpty ? "" : "&" + query) + (cursor.map { "&cursor=\($0)" } ?? ""))
            ids += (page["items"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
            totals.insert(page["total"] as? Int ?? -1)
            cursor = (page["next"] as? Int).map(String.init) ?? page["next"] as? String
        } while cursor != nil && ids.count < 100
        return (ids, totals)
    }

    /// Filters count and list over everything: topic (paged), token, status, and a topic never seen.
    static func filters(_ emulator: RunningEmulator, _ sent: [Sent]) async throws {
        let odd = try await Self.pages(emulator, "topic=com.example.odd", limit: 3)
        #expect(odd.totals == [sent.filter { $0.topic == "com.example.odd" }.count])
        #expect(odd.ids.count == sent.filter { $0.topic == "com.example.odd" }.count)
        let other = try await emulator.adminObject("/api/v1/notifications?token=\(Self.other)&limit=100")
        #expect(other["total"] as? Int == sent.filter { $0.token == Self.other }.count)
        let refused = try await emulator.adminObject("/api/v1/notifications?status=rejected")
        #expect(refused["total"] as? Int == 3)
        #expect(try await emulator.adminObject("/api/v1/notifications?topic=com.example.none")["total"] as? Int == 0)
    }

    @Test("15 requests with a ring of 4: totals, paging, filters, q, reads by id, status changes and DELETE reach the oldest, before and after a restart")
    func pastTheRing() async throws {
        let directory = try TemporaryDirectory()
        defer { try? directory.remove() }
        let emulator = try await RunningEmulator.start(directory: directory) { $0.storagePolicy = .all; $0.journalSize = 4 }
        let sent = try await Self.send(to: emulator)
        let all = try await emulator.adminObject("/api/v1/notifications?limit=100")
        let items = all["items"] as? [[String: Any]] ?? []
        #expect(all["total"] as? Int == 15, "every request is counted, not the ring's 4")
        #expect(items.count == 15)
        // Newest first, in the order they were sent (the refused ones' ids are the journal's own).
        let accepted = items.filter { $0["status"] as? String != "rejected" }.compactMap { $0["id"] as? String }
        #expect(accepted == sent.compactMap(\.id).reversed())
        #expect(items.map { $0["status"] as? String == "rejected" } == sent.map(\.refused).reversed())
        let everyID = items.compactMap { $0["id"] as? String }

        // Paging 4 at a time crosses from the ring into the archive without a gap or a repeat.
        let paged = try await Self.pages(emulator, "", limit: 4)
        #expect(paged.ids == everyID && paged.totals == [15])

        try await Self.filters(emulator, sent)

        // The oldest, long out of the ring: found by text, read by id, with its delivery log.
        let oldest = try #require(sent[0].id)
        // A quoted phrase (q's words alone are AND-ed, each found anywhere: issue 70's grammar).
        let found = try await emulator.adminObject("/api/v1/notifications?q=%22archived%20number%200%22")
        #expect(found["total"] as? Int == 1)
        #expect((found["items"] as? [[String: Any]])?.first?["id"] as? String == oldest)
        let entry = try await emulator.adminObject("/api/v1/notifications/\(oldest)")
        #expect(entry["status"] as? String == "queued" && entry["topic"] as? String == "com.example.even", "\(entry)")
        #expect((entry["payload"].map { "\($0)" } ?? "").contains("archived number 0"), "\(entry)")
        _ = try await emulator.adminObject("/api/v1/notifications/\(oldest)/delivery-log")

        // A clock move past its expiration changes its status where it is archived.
        _ = try await emulator.adminObject("/api/v1/clock", method: "POST", body: #"{"advance": "2h"}"#)
        #expect(try await emulator.adminObject("/api/v1/notifications/\(oldest)")["status"] as? String == "expired")
        #expect(try await emulator.adminObject("/api/v1/notifications?status=expired")["total"] as? Int == 1)

        // DELETE by text removes an archived one from the journal and the store.
        // ("archived number 1" would be 10 to 14's start too; 2 is no other's.)
        let second = try #require(sent[2].id)
        let deleted = try await emulator.adminObject("/api/v1/notifications?q=%22archived%20number%202%22", method: "DELETE")
        #expect(deleted["deleted"] as? Int == 1, "\(deleted)")
        _ = try await emulator.adminObject("/api/v1/notifications/\(second)", status: 404)
        #expect(try await emulator.queued(Self.token).allSatisfy { $0["uniqueId"] as? String != second })
        try await emulator.stop()

        // After a restart: the same 14, the same order, the same statuses.
        let restarted = try await RunningEmulator.start(directory: directory) { $0.storagePolicy = .all; $0.journalSize = 4 }
        let again = try await Self.pages(restarted, "", limit: 5)
        #expect(again.ids.count == 14 && again.totals == [14])
        let statuses = try await restarted.adminObject("/api/v1/notifications?limit=100")["items"] as? [[String: Any]] ?? []
        #expect(statuses.filter { $0["status"] as? String == "rejected" }.count == 3)
        #expect(try await restarted.adminObject("/api/v1/notifications/\(oldest)")["status"] as? String == "expired")
        #expect(try await restarted.adminObject("/api/v1/notifications?q=%22archived%20number%203%22")["total"] as? Int == 1)
        try await restarted.stop()
    }
}

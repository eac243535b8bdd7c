import APNsStore
import APNsTestSupport
import Foundation
import Testing

/// The journal's history survives a restart, rejected requests included (issue 53: "rejected
/// requests vanish at a restart, and a person cannot look back at what a test run sent").
@Suite("The journal across restarts")
struct JournalHistoryTests {
    static let token = String(repeating: "6f", count: 32)

    @Test(
        "a refusal is still in the journal after a restart, with its reason, detail, body and status; in arrival order with the accepted"
    )
    func refusalsSurvive() async throws {
        let directory = try TemporaryDirectory()
        defer { try? directory.remove() }
        let emulator = try await RunningEmulator.start(directory: directory)
        let client = try await emulator.http2Client()
        let first = try await client.push(token: Self.token, topic: "com.example.history")
        let refused = try await client.push(
            token: Self.token, headers: [("apns-topic", "com.example.history"), ("apns-priority", "7")])
        #expect(first.status == 200 && refused.status == 400)
        let badToken = try await client.push(token: "abc", topic: "com.example.history", json: #"{"aps":{"alert":"to nobody"}}"#)
        #expect(badToken.status == 400 && badToken.reason == "BadDeviceToken")
        let before = try await emulator.journal()
        #expect(before.count == 3)
        // Each refusal was handed to the store before its answer went out; stopping commits it.
        try await client.close()
        try await emulator.stop()

        let restarted = try await RunningEmulator.start(directory: directory)
        let after = try await restarted.journal()
        #expect(after.map { $0["status"] as? String } == ["rejected", "rejected", "queued"], "\(after)")
        let bad = try #require(after.first)
        #expect(
            bad["reason"] as? String == "BadDeviceToken" && bad["httpStatus"] as? Int == 400 && bad["token"] as? String == "abc")
        #expect((bad["body"] as? String)?.contains("to nobody") == true, "\(bad)")
        let priority = after[1]
        #expect(
            priority["reason"] as? String == "BadPriority" && (priority["detail"] as? String)?.contains("apns-priority") == true)
        #expect(priority["id"] as? String == before[1]["id"] as? String, "the same id before and after")
        // The filters work over it.
        #expect(try await restarted.journal("status=rejected&q=BadDeviceToken").count == 1)

        // DELETE forgets it for good; reset too.
        _ = try await restarted.admin("/api/v1/notifications?status=rejected&q=BadDeviceToken", method: "DELETE")
        try await restarted.stop()
        let again = try await RunningEmulator.start(directory: directory)
        #expect(try await again.journal().map { $0["reason"] as? String } == ["BadPriority", nil])
        _ = try await again.adminObject("/api/v1/reset", method: "POST", body: "{}")
        try await again.stop()
        let reset = try await RunningEmulator.start(directory: directory)
        #expect(try await reset.journal().isEmpty)
        try await reset.stop()
    }

    /// `--retain`: past its count the oldest history goes, from the journal at once and from the
    /// store for good; a notification still queued for a device stays whatever its age.
    @Test(
        "--retain 4: the journal keeps the queued notification and the 4 newest of 8 history entries, before and after a restart")
    func retainCount() async throws {
        let directory = try TemporaryDirectory()
        defer { try? directory.remove() }
        let retain = Retention(count: 4, bytes: 1 << 30, age: nil)
        let emulator = try await RunningEmulator.start(directory: directory) { $0.retention = retain }
        let client = try await emulator.http2Client()
        let queued = try await client.accepted(token: Self.token, topic: "com.example.history")
        var history: [String] = []  // the accepted ones among the 8, oldest first
        for index in 0..<8 {
            if index % 4 == 1 {
                // A refusal: history too (its journal id is not the client's to know).
                let refused = try await client.push(token: Self.token, topic: "com.example.history", priority: 7)
                #expect(refused.status == 400)
            } else {
                // Expiration 0 and no device online: discarded at once, history from the start.
                history.append(
                    try await client.accepted(
                        token: Self.token, topic: "com.example.history", headers: [("apns-expiration", "0")]))
            }
        }
        func ids(_ emulator: RunningEmulator) async throws -> [String] {
            try await emulator.journal().compactMap { $0["id"] as? String }
        }
        let during = try await ids(emulator)
        let journal = try await emulator.journal()
        #expect(during.count == 5 && during.contains(queued), "\(journal)")
        #expect(during.contains(try #require(history.last)) && !during.contains(history[0]), "the newest stay, the oldest go")
        try await client.close()
        try await emulator.stop()

        let restarted = try await RunningEmulator.start(directory: directory) { $0.retention = retain }
        #expect(Set(try await ids(restarted)) == Set(during))
        #expect(try await restarted.queued(Self.token).compactMap { $0["uniqueId"] as? String } == [queued])
        try await restarted.stop()
    }

    @Test("what the phone made of a notification (its presentation, the user's response) is still in the journal after a restart")
    func phoneSurvives() async throws {
        let directory = try TemporaryDirectory()
        defer { try? directory.remove() }
        let topic = "com.example.phone-history"
        var emulator = try await RunningEmulator.start(directory: directory)
        let issued = try await emulator.adminObject(
            "/api/v1/devices", method: "POST", body: #"{"topic": "\#(topic)"}"#, status: 201)
        let token = try #require(issued["token"] as? String)
        _ = try await emulator.adminObject(
            "/api/v1/devices/\(token)/app", method: "PUT",
            body:
                #"{"authorization": {"status": "authorized", "alert": true}, "categories": [{"identifier": "C", "actions": [{"identifier": "OK", "title": "OK"}]}]}"#
        )
        let client = try await emulator.http2Client()
        let pushed = try await client.push(
            token: token, headers: [("apns-topic", topic)], json: #"{"aps":{"alert":"kept","category":"C"}}"#)
        let uniqueID = try #require(pushed.header("apns-unique-id"))
        _ = try await emulator.adminObject(
            "/api/v1/notifications/\(uniqueID)/respond", method: "POST", body: #"{"action": "OK"}"#)
        func phone(_ emulator: RunningEmulator) async throws -> (presentation: String, response: String, outcome: String) {
            let read = try await emulator.adminObject("/api/v1/notifications/\(uniqueID)")
            func text(_ value: Any?) throws -> String {
                guard let value, !(value is NSNull) else { return "null" }
                return String(decoding: try JSONSerialization.data(withJSONObject: value, options: [.sortedKeys]), as: UTF8.self)
            }
            return (try text(read["presentation"]), try text(read["response"]), try text(read["phoneOutcome"]))
        }
        let before = try await phone(emulator)
        #expect(before.presentation.contains(#""shown":true"#) && before.response.contains(#""action":"OK""#), "\(before)")
        try await client.close()
        try await emulator.stop()

        emulator = try await RunningEmulator.start(directory: directory)
        let after = try await phone(emulator)
        #expect(after == before)
        try await emulator.stop()
    }
}

import APNsTestSupport
import Foundation
import Testing

/// The journal holds only its newest `--journal-size` entries whole; the rest are small index
/// entries whose contents the store gives back. What the phone does with a notification comes
/// after its 200, so under load the notification has often left the ring by then: its
/// presentation must still reach the inbox and the admin API, and a wait from a cursor must still
/// find the oldest match (issue 68: "the journal (a view that reads the log, holding only small
/// fixed entries ... reading whole items back from the log when asked)").
@Suite("The journal's ring, small")
struct JournalRingTests {
    @Test(
        "with --journal-size 2, each of 8 pushes a device gets on reconnecting shows its presentation, and a wait from a cursor finds the oldest match"
    )
    func presentationsPastTheRing() async throws {
        // Every one kept while the device is away (not the default's newest per app), so that all
        // 8 are journaled, and 6 of them out of the ring, before the phone sees any.
        let emulator = try await RunningEmulator.start {
            $0.journalSize = 2
            $0.storagePolicy = .all
        }
        let token = try await emulator.offlineToken(topic: "com.example.ring", device: "ring-phone")
        let client = try await emulator.http2Client()
        var sent: [String] = []
        for index in 0..<8 {
            sent.append(
                try await client.accepted(
                    token: token.hex, topic: "com.example.ring", json: #"{"aps":{"alert":"ring \#(index)"}}"#))
        }
        #expect(try await emulator.journal("token=\(token.hex)&limit=100").allSatisfy { !($0["presentation"] is [String: Any]) })
        let device = try await emulator.device("ring-phone")
        _ = try await device.resume([token])
        for _ in 0..<8 { try await device.acknowledge(try await device.next().uniqueID) }
        // The phone records what it did as each is handed over, and the device's acknowledgement
        // moves it to delivered: all 8, not the ring's 2.
        let presented = await eventually {
            let items = (try? await emulator.journal("token=\(token.hex)&limit=100")) ?? []
            return items.count == 8
                && items.allSatisfy { $0["presentation"] is [String: Any] && $0["status"] as? String == "delivered" }
        }
        let items = try await emulator.journal("token=\(token.hex)&limit=100")
        #expect(presented, "every entry has the phone's presentation: \(items.map { $0["presentation"] != nil })")
        #expect(items.compactMap { $0["id"] as? String } == sent.reversed())
        #expect(items.allSatisfy { $0["status"] as? String == "delivered" }, "\(items.map { $0["status"] ?? "-" })")
        // Read by id, the oldest (long out of the ring) has it too, and the outcome filter counts all 8.
        let oldest = try await emulator.adminObject("/api/v1/notifications/\(sent[0])")
        #expect(oldest["presentation"] is [String: Any], "\(oldest)")
        let waiting = try await emulator.adminObject("/api/v1/notifications?token=\(token.hex)&outcome=waiting")
        #expect(waiting["total"] as? Int == 0, "\(waiting)")

        // A wait after the first: the second, from the archive, not the ring's newest.
        let waited = try await emulator.adminObject(
            "/api/v1/notifications/wait?token=\(token.hex)&after=\(sent[0])&timeout=5s")
        #expect(waited["id"] as? String == sent[1], "\(waited)")
        try await client.close()
        try await device.close()
        try await emulator.stop()
    }
}

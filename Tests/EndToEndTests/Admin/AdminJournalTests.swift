import APNsCore
import APNsTestSupport
import Foundation
import Testing

@Suite("Admin API: the notification journal")
struct AdminJournalTests {
    static let topic = "com.example.app"

    @Test("accepted and rejected pushes from both interfaces, newest first, with status, source, reason and status byte")
    func journal() async throws {
        try await withEmulator { emulator in
            let token = String(repeating: "a1", count: 32)
            let provider = try await emulator.http2Client()
            let ok = try await provider.push(
                token: token, headers: [("apns-topic", Self.topic), ("apns-push-type", "alert")],
                json: #"{"aps":{"alert":"one"}}"#)
            #expect(ok.status == 200)
            let bad = try await provider.push(
                token: "1234", headers: [("apns-topic", Self.topic), ("apns-id", "8E3C5F4A-1B2C-4D5E-8F90-A1B2C3D4E5F6")])
            #expect(bad.status == 400)
            var stream = BinaryStream()
            let binaryToken = try #require(DeviceToken(hex: String(repeating: "b2", count: 32)))
            stream.frame(token: binaryToken, n: 1, identifier: 7)
            stream.frame(
                BinaryPushRequest(
                    command: 2, identifier: 8, expiry: 0, token: [1, 2, 3], payload: Array(#"{"aps":{}}"#.utf8), priority: 10))
            let errorResponse = try await emulator.gateway(stream)
            #expect(errorResponse?.status == .invalidTokenSize)

            let items = try await emulator.journal()
            #expect(items.count == 4)
            // Newest first: the binary rejection, the binary acceptance, the HTTP/2 rejection, the HTTP/2 acceptance.
            #expect(items.map { $0["status"] as? String } == ["rejected", "queued", "rejected", "queued"])
            #expect(items.map { $0["source"] as? String } == ["binary", "binary", "http2", "http2"])

            let accepted = items[3]
            #expect(accepted["token"] as? String == token)
            #expect(accepted["topic"] as? String == Self.topic)
            #expect(accepted["pushType"] as? String == "alert")
            #expect(accepted["uniqueId"] as? String == ok.header("apns-unique-id"))
            #expect(accepted["id"] as? String == ok.header("apns-unique-id"))
            #expect(accepted["apnsId"] as? String == ok.header("apns-id"))
            #expect((accepted["payload"] as? [String: Any])?["aps"] as? [String: String] == ["alert": "one"])
            #expect(accepted["receivedAt"] is String)
            #expect(accepted["statusAt"] is NSNull)

            let rejected = items[2]
            #expect(rejected["reason"] as? String == "BadDeviceToken")
            #expect(rejected["httpStatus"] as? Int == 400)
            #expect(rejected["token"] as? String == "1234")
            #expect(rejected["apnsId"] as? String == "8E3C5F4A-1B2C-4D5E-8F90-A1B2C3D4E5F6")
            #expect(rejected["body"] as? String == #"{"aps":{"alert":"hello"}}"#)

            let binaryRejected = items[0]
            #expect(binaryRejected["statusByte"] as? Int == 5)
            #expect(binaryRejected["token"] as? String == "010203")
            #expect(binaryRejected["reason"] is NSNull)
            // Numbers as numbers, on a rejected item too.
            #expect(binaryRejected["priority"] as? Int == 10 && binaryRejected["expiration"] as? Int == 0, "\(binaryRejected)")
            #expect(items[1]["token"] as? String == binaryToken.hex)

            try await self.oddRequests(emulator, provider, token: token)
        }
    }

    /// What did not read as a number stays as sent under unparsed; a request to another path has no token, its path says where.
    private func oddRequests(_ emulator: RunningEmulator, _ provider: HTTP2TestClient, token: String) async throws {
        // What did not read as a number stays as sent under unparsed; a request to another path has no token, its path says where.
        #expect(
            try await provider.push(token: token, headers: [("apns-topic", Self.topic), ("apns-priority", "high")]).status
                == 400)
        #expect(
            try await provider.send(
                path: "/3/devices/\(token)", headers: [("apns-topic", Self.topic)], body: Array("{}".utf8)
            ).status == 404)
        let odd = try await emulator.journal("status=rejected&limit=2")
        #expect(odd[0]["token"] is NSNull && odd[0]["path"] as? String == "/3/devices/\(token)", "\(odd[0])")
        #expect(
            odd[1]["priority"] is NSNull && (odd[1]["unparsed"] as? [String: String]) == ["priority": "high"], "\(odd[1])")
    }

    @Test("filters, paging with a cursor, one by id, latest, and clear errors for bad parameters")
    func filtersAndPaging() async throws {
        try await withEmulator { emulator in
            let first = String(repeating: "c1", count: 32)
            let second = String(repeating: "c2", count: 32)
            let provider = try await emulator.http2Client()
            for n in 0..<5 {
                #expect(
                    try await provider.push(token: first, topic: Self.topic, json: #"{"n":\#(n)}"#).status
                        == 200)
            }
            let background = try await provider.push(
                token: second,
                headers: [("apns-topic", "com.example.other"), ("apns-push-type", "background"), ("apns-priority", "5")],
                json: #"{"aps":{"content-available":1}}"#
            )
            #expect(background.status == 200)
            #expect(try await provider.push(token: second, headers: [("apns-push-type", "nonsense")]).status == 400)

            func numbers(_ items: [[String: Any]]) -> [Int] {
                items.compactMap { ($0["payload"] as? [String: Any])?["n"] as? Int }
            }
            #expect(numbers(try await emulator.journal("token=\(first)")) == [4, 3, 2, 1, 0])
            #expect(try await emulator.journal("token=\(second)").count == 2)
            #expect(try await emulator.journal("token=\(second.uppercased())").count == 2)
            #expect(try await emulator.journal("topic=com.example.other").count == 1)
            #expect(
                try await emulator.journal("pushType=background").first?["uniqueId"] as? String
                    == background.header("apns-unique-id"))
            #expect(try await emulator.journal("status=rejected").count == 1)
            #expect(try await emulator.journal("status=queued&token=\(second)").count == 1)
            #expect(try await emulator.journal("interface=binary").isEmpty)
            #expect(try await emulator.journal("since=2999-01-01T00:00:00Z").isEmpty)
            #expect(try await emulator.journal("since=0").count == 7)

            // Pages of two, newest first, until next is null; total counts every match.
            var seen: [Int] = []
            var cursor: String?
            var pages = 0
            repeat {
                let page = try await emulator.adminObject(
                    "/api/v1/notifications?token=\(first)&limit=2" + (cursor.map { "&cursor=\($0)" } ?? ""))
                #expect(page["total"] as? Int == 5)
                seen += numbers(page["items"] as? [[String: Any]] ?? [])
                cursor = page["next"] as? String
                pages += 1
            } while cursor != nil && pages < 10
            #expect(seen == [4, 3, 2, 1, 0])
            #expect(pages == 3)

            try await self.oneAndLatest(emulator, background: background, first: first)
        }
    }

    /// One by id, the latest, and the refusals of bad parameters.
    private func oneAndLatest(_ emulator: RunningEmulator, background: HTTP2TestClient.Response, first: String) async throws {
        let id = try #require(background.header("apns-unique-id"))
        let one = try await emulator.adminObject("/api/v1/notifications/\(id)")
        #expect(one["pushType"] as? String == "background")
        #expect(one["priority"] as? Int == 5)
        #expect(try await emulator.admin("/api/v1/notifications/no-such-id").status == 404)
        let latest = try await emulator.adminObject("/api/v1/notifications/latest?token=\(first)")
        #expect((latest["payload"] as? [String: Any])?["n"] as? Int == 4)
        #expect(
            try await emulator.admin("/api/v1/notifications/latest?token=\(String(repeating: "0f", count: 32))").status == 404
        )

        try await self.badParameters(emulator, token: first)
    }

    /// Bad and misspelt query parameters are errors naming them, not "no filter".
    private func badParameters(_ emulator: RunningEmulator, token first: String) async throws {
        for bad in ["status=lost", "interface=carrier-pigeon", "since=yesterday", "limit=0", "limit=5000", "cursor=abc"] {
            let response = try await emulator.admin("/api/v1/notifications?\(bad)")
            #expect(response.status == 400, "\(bad)")
            #expect((try? response.json() as? [String: Any])?["error"] is String, "\(bad)")
        }
        // A misspelt parameter is an error naming it, not "no filter".
        for (path, name) in [
            ("/api/v1/notifications?tokn=\(first)", "tokn"), ("/api/v1/notifications/latest?limit=1", "limit"),
            ("/api/v1/faults?token=\(first)", "token"), ("/api/v1/reset?device=true", "device"),
            ("/healthz?verbose=1", "verbose"),
        ] {
            let response = try await emulator.admin(path, method: path.contains("reset") ? "POST" : "GET")
            #expect(
                response.status == 400 && response.text.contains("unknown query parameter \(name)"),
                "\(path) -> \(response.status) \(response.text)")
        }
        #expect(try await emulator.admin("/?utm=1").status == 200)
    }

    @Test("a notification's status follows it: delivered on the device's ack, discarded, expired")
    func statuses() async throws {
        let clock = ManualClock(millis: Int64(Date().timeIntervalSince1970 * 1000))
        try await withEmulator(configure: { $0.clock = clock.function }) { emulator in
            let device = try await emulator.device()
            let online = try await device.register(topic: Self.topic)
            let offline = try await emulator.offlineToken(topic: Self.topic, device: "offline")
            let provider = try await emulator.http2Client()

            let delivered = try await provider.push(token: online.hex, topic: Self.topic)
            let received = try await device.next()
            try await device.acknowledge(received.uniqueID)
            let discarded = try await provider.push(
                token: offline.hex, headers: [("apns-topic", Self.topic), ("apns-expiration", "0")])
            let expiring = try await provider.push(
                token: offline.hex, headers: [("apns-topic", Self.topic), ("apns-expiration", String(clock.now / 1000 + 60))]
            )
            clock.advance(seconds: 61)

            func status(_ response: HTTP2TestClient.Response) async throws -> (String?, Any?) {
                let entry = try await emulator.adminObject("/api/v1/notifications/\(response.header("apns-unique-id") ?? "")")
                return (entry["status"] as? String, entry["statusAt"])
            }
            #expect(await eventually { (try? await status(delivered).0) == "delivered" })
            #expect(try await status(delivered).1 is String)
            #expect(try await status(discarded).0 == "discarded")
            #expect(await eventually { (try? await status(expiring).0) == "expired" })
            #expect(try await emulator.journal("status=delivered").count == 1)
        }
    }

    @Test("the journal survives a restart: queued and delivered notifications are still listed")
    func restart() async throws {
        let directory = try TemporaryDirectory()
        let emulator = try await RunningEmulator.start(directory: directory)
        let token = String(repeating: "d4", count: 32)
        let provider = try await emulator.http2Client()
        let queued = try await provider.push(token: token, topic: Self.topic)
        try await provider.close()
        try await emulator.stop()

        let restarted = try await RunningEmulator.start(directory: directory)
        let items = try await restarted.journal("token=\(token)")
        #expect(items.count == 1)
        #expect(items.first?["uniqueId"] as? String == queued.header("apns-unique-id"))
        #expect(items.first?["status"] as? String == "queued")
        try await restarted.stop()
    }

    @Test("DELETE forgets matching notifications in the journal and their queue; others stay")
    func delete() async throws {
        try await withEmulator { emulator in
            let gone = String(repeating: "e5", count: 32)
            let kept = String(repeating: "e6", count: 32)
            let provider = try await emulator.http2Client()
            for token in [gone, gone, kept] {
                #expect(try await provider.push(token: token, topic: Self.topic).status == 200)
            }
            let deleted = try await emulator.adminObject("/api/v1/notifications?token=\(gone)", method: "DELETE")
            #expect(deleted["deleted"] as? Int == 2)
            #expect(try await emulator.journal("token=\(gone)").isEmpty)
            #expect(try await emulator.queued(gone).isEmpty)
            #expect(try await emulator.queued(kept).count == 1)
            #expect(try await emulator.journal().count == 1)
        }
    }
}

import APNsCore
import APNsServer
import APNsTestSupport
import Foundation
import NIOHTTP2
import Testing

/// The HTTP/2 provider API over real TLS, against a real emulator on port 0.
@Suite("HTTP/2 provider API")
struct ProviderAPITests {
    static let token = String(repeating: "a1", count: 32)

    @Test("a valid push is answered 200 with apns-id echoed and apns-unique-id, and is queued")
    func acceptsAndQueues() async throws {
        try await withEmulator { emulator in
            let client = try await emulator.http2Client()
            let apnsID = "123e4567-e89b-12d3-a456-426614174000"
            let response = try await client.push(
                token: Self.token,
                headers: [
                    ("apns-id", apnsID), ("apns-topic", "com.example.app"), ("apns-push-type", "alert"),
                    ("apns-priority", "5"), ("apns-expiration", "4102444800"), ("apns-collapse-id", "game-1"),
                ],
                json: #"{"aps":{"alert":{"title":"Hi","body":"there"},"badge":3},"custom":[1,2.5,null,true]}"#
            )
            #expect(response.status == 200)
            #expect(response.header("apns-id") == apnsID)
            let uniqueID = try #require(response.header("apns-unique-id"))
            #expect(APNsID.isCanonical(uniqueID))
            #expect(response.body.isEmpty)

            let admin = try await emulator.admin("/api/v1/devices/\(Self.token)/notifications")
            #expect(admin.status == 200)
            let items = try #require(try admin.json() as? [[String: Any]])
            try #require(items.count == 1)
            let item = items[0]
            #expect(item["apnsId"] as? String == apnsID)
            #expect(item["uniqueId"] as? String == uniqueID)
            #expect(item["topic"] as? String == "com.example.app")
            #expect(item["pushType"] as? String == "alert")
            #expect(item["priority"] as? Int == 5)
            #expect(item["expiration"] as? Int == 4_102_444_800)
            #expect(item["collapseId"] as? String == "game-1")
            let payload = try #require(item["payload"] as? [String: Any])
            #expect((payload["aps"] as? [String: Any])?["badge"] as? Int == 3)
            #expect((item["receivedAt"] as? String)?.hasSuffix("Z") == true)
            #expect(item["assumed"] as? [String] == [], "every header was sent")
            try await client.close()
        }
    }

    // Issue 69: the Headers tab showed `apns-push-type: alert` for a push that sent none. APNs'
    // defaults ("Sending notification requests to APNs": apns-priority "defaults to 10"; apns-id
    // "If you omit this header, APNs creates a UUID for you") are the values; `assumed` says which.
    @Test("the journal names the headers a provider left out, whose values the emulator assumed, across a restart")
    func assumedHeaders() async throws {
        let directory = try TemporaryDirectory()
        var emulator = try await RunningEmulator.start(directory: directory)
        let client = try await emulator.http2Client()
        let bare = try await client.accepted(token: Self.token, topic: "com.example.app")
        let typed = try await client.accepted(token: Self.token, topic: "com.example.app", pushType: "alert", priority: 5)
        try await client.close()
        func assumed(_ id: String) async throws -> [String]? {
            try await emulator.adminObject("/api/v1/notifications/\(id)")["assumed"] as? [String]
        }
        #expect(try await assumed(bare) == ["apns-push-type", "apns-priority", "apns-id"])
        #expect(try await assumed(typed) == ["apns-id"])
        try await emulator.stop()
        emulator = try await RunningEmulator.start(directory: directory)
        #expect(try await assumed(bare) == ["apns-push-type", "apns-priority", "apns-id"], "kept in the store's record")
        try await emulator.stop()
        try directory.remove()
    }

    @Test("without apns-id the server generates one; notifications queue in order")
    func generatesIDsAndKeepsOrder() async throws {
        try await withEmulator(configure: { $0.storagePolicy = .all }) { emulator in
            let client = try await emulator.http2Client()
            var ids: [String] = []
            for i in 0..<5 {
                let response = try await client.push(token: Self.token, json: #"{"n":\#(i)}"#)
                #expect(response.status == 200)
                ids.append(try #require(response.header("apns-id")))
            }
            #expect(ids.allSatisfy(APNsID.isCanonical))
            #expect(Set(ids).count == 5)
            let items = try await emulator.queued(Self.token)
            #expect(items.compactMap { ($0["payload"] as? [String: Any])?["n"] as? Int } == [0, 1, 2, 3, 4])
            #expect(items.map { $0["apnsId"] as? String } == ids)
        }
    }

    // Apple: apns-unique-id is a development-environment header (pushes and broadcasts alike).
    @Test("the production environment does not send apns-unique-id, for a push or a broadcast")
    func productionHasNoUniqueID() async throws {
        try await withEmulator(configure: { $0.environment = .production }) { emulator in
            let client = try await emulator.http2Client()
            let response = try await client.push(token: Self.token)
            #expect(response.status == 200)
            #expect(response.header("apns-unique-id") == nil)
            let channel = try await BroadcastTests.channel(client)
            let broadcast = try await BroadcastTests.publish(
                client, channel, LiveActivityTests.update(LiveActivityTests.now, "x"))
            #expect(broadcast.status == 200 && broadcast.header("apns-request-id") != nil)
            #expect(broadcast.header("apns-unique-id") == nil)
        }
    }

    @Test("expiration 0 is answered 200 but not queued (no device is connected)")
    func expirationZeroIsNotStored() async throws {
        try await withEmulator { emulator in
            let client = try await emulator.http2Client()
            let response = try await client.push(token: Self.token, headers: [("apns-expiration", "0")])
            #expect(response.status == 200)
            let items = try await emulator.queued(Self.token)
            #expect(items.isEmpty)
        }
    }

    @Test("the server advertises APNs' SETTINGS and opens the connection window at once")
    func settings() async throws {
        try await withEmulator { emulator in
            let client = try await emulator.http2Client()
            let events = try await client.waitForEvents { !$0.settings.isEmpty && $0.windowIncrements > 0 }
            func value(_ parameter: HTTP2SettingsParameter) -> Int? { events.settings.last { $0.parameter == parameter }?.value }
            #expect(value(.maxConcurrentStreams) == 1000)
            #expect(value(.maxHeaderListSize) == 8000)
            #expect(value(.initialWindowSize) == 65_535)
            #expect(value(.maxFrameSize) == 16_384)
            #expect(65_535 + events.windowIncrements >= 1000 * 4096)
        }
    }

    @Test("1000 concurrent streams of 4 KiB on one connection all succeed")
    func thousandConcurrentStreams() async throws {
        try await withEmulator(configure: { $0.durability = .relaxed }) { emulator in
            let client = try await emulator.http2Client()
            _ = try await client.waitForEvents { !$0.settings.isEmpty }
            let filler = String(repeating: "x", count: 4096 - 20)
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for i in 0..<1000 {
                    let token = String(format: "%064x", i)
                    group.addTask { try await client.push(token: token, json: #"{"p":"\#(filler)"}"#).status }
                }
                return try await group.reduce(into: [Int: Int]()) { $0[$1, default: 0] += 1 }
            }
            #expect(statuses == [200: 1000])
            let sample = try await emulator.queued(String(format: "%064x", 999))
            #expect(sample.count == 1)
        }
    }
}

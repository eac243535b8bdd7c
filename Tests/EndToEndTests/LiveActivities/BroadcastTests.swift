import APNsCore
import APNsDeviceClient
import APNsTestSupport
import Foundation
import Testing

/// Broadcast push over real HTTP/2 and TLS: channel management and publishing as Apple
/// documents them ("Sending channel management requests to APNs", "Sending broadcast push
/// notification requests to APNs", "Handling error responses from APNs"), and each broadcast
/// reaching the Live Activities subscribed to its channel.
@Suite("Broadcast push, end to end")
struct BroadcastTests {
    static let bundle = LiveActivityTests.bundle
    static let channelsPath = "/1/apps/\(bundle)/channels"
    static let publishPath = "/4/broadcasts/apps/\(bundle)"

    static func create(
        _ client: HTTP2TestClient, policy: String = "1", headers: [(String, String)] = [], bundle: String = bundle
    ) async throws -> HTTP2TestClient.Response {
        try await client.send(
            path: "/1/apps/\(bundle)/channels", headers: headers,
            body: Array(#"{"message-storage-policy": \#(policy), "push-type": "LiveActivity"}"#.utf8))
    }

    static func channel(_ client: HTTP2TestClient, policy: String = "1") async throws -> String {
        let created = try await Self.create(client, policy: policy)
        #expect(created.status == 201)
        return try #require(created.header("apns-channel-id"))
    }

    static func publish(
        _ client: HTTP2TestClient, _ channel: String, _ json: String, expiration: String = "0", priority: String = "10",
        extra: [(String, String)] = []
    ) async throws -> HTTP2TestClient.Response {
        let headers =
            [
                ("apns-channel-id", channel), ("apns-push-type", "LiveActivity"), ("apns-expiration", expiration),
                ("apns-priority", priority),
            ] + extra
        return try await client.send(path: Self.publishPath, headers: headers, body: Array(json.utf8))
    }

    /// An app with the Delivery type and one activity started in the app on `channel`.
    static func subscriber(_ emulator: RunningEmulator, channel: String) async throws -> (token: String, activity: String) {
        let (token, _) = try await LiveActivityTests.app(emulator)
        let request =
            #"{"attributes-type": "Delivery", "attributes": {"order": 1}, "content-state": {"status": "new"}, "pushType": {"channel": "\#(channel)"}}"#
        let started = try await emulator.adminObject(
            "/api/v1/devices/\(token)/activities", method: "POST", body: request, status: 201)
        return (token, try #require(started["id"] as? String))
    }

    static func status(_ emulator: RunningEmulator, _ activity: String) async throws -> String? {
        (try await emulator.adminObject("/api/v1/activities/\(activity)")["contentState"] as? [String: Any])?["status"] as? String
    }

    /// Whether `id` is a canonical UUID of version 7 (RFC 9562: the version nibble is the 13th hex digit).
    static func isVersion7(_ id: String?) -> Bool {
        guard let id, UUID(uuidString: id) != nil, id == id.lowercased() else { return false }
        return Array(id)[14] == "7"
    }

    @Test(
        "the ids the emulator makes for broadcast answers and refusals are version 7 (time-ordered), like an accepted push's (issue 41)"
    )
    func generatedIDsAreVersion7() async throws {
        try await withEmulator { emulator in
            let client = try await HTTP2TestClient.connect(host: "127.0.0.1", port: emulator.http2Port, caPath: emulator.caPath)
            let created = try await Self.create(client)
            #expect(created.status == 201 && Self.isVersion7(created.header("apns-request-id")), "\(created.headers)")
            let channel = try #require(created.header("apns-channel-id"))
            let published = try await Self.publish(
                client, channel, #"{"aps": {"event": "update", "content-state": {}, "timestamp": 1}}"#)
            #expect(Self.isVersion7(published.header("apns-request-id")), "\(published.headers)")
            let refused = try await client.send(
                path: Self.publishPath, headers: [("apns-channel-id", channel), ("apns-push-type", "LiveActivity")],
                body: Array(#"{"aps": {"event": "update", "content-state": {}, "timestamp": 1}}"#.utf8))
            #expect(refused.status == 400 && Self.isVersion7(refused.header("apns-request-id")), "\(refused.headers)")
            let badToken = try await client.push(token: "abc", topic: Self.bundle)
            #expect(badToken.reason == "BadDeviceToken" && Self.isVersion7(badToken.header("apns-id")), "\(badToken.headers)")
            try await client.close()
        }
    }

    @Test("create, read, list and delete a channel on the provider port and on the channels port; request ids echoed or made")
    func management() async throws {
        try await withEmulator { emulator in
            for port in [emulator.http2Port, emulator.channelsPort] {
                let client = try await HTTP2TestClient.connect(host: "127.0.0.1", port: port, caPath: emulator.caPath)
                let requestID = UUID().uuidString.lowercased()
                let created = try await Self.create(client, headers: [("apns-request-id", requestID)])
                #expect(created.status == 201 && created.body.isEmpty && created.header("apns-request-id") == requestID)
                let id = try #require(created.header("apns-channel-id"))
                #expect(Data(base64Encoded: id) != nil, "channel ids are base64")
                let read = try await client.send(method: "GET", path: Self.channelsPath, headers: [("apns-channel-id", id)])
                #expect(
                    read.status == 200 && read.json?["message-storage-policy"] as? Int == 1
                        && read.json?["push-type"] as? String == "LiveActivity")
                #expect(UUID(uuidString: read.header("apns-request-id") ?? "") != nil, "a request id is made when none is sent")
                let listed = try await client.send(method: "GET", path: "/1/apps/\(Self.bundle)/all-channels")
                #expect(listed.status == 200 && (listed.json?["channels"] as? [String])?.contains(id) == true)
                #expect(
                    try await client.send(method: "DELETE", path: Self.channelsPath, headers: [("apns-channel-id", id)]).status
                        == 204)
                let gone = try await client.send(method: "GET", path: Self.channelsPath, headers: [("apns-channel-id", id)])
                #expect(gone.status == 400 && gone.reason == "ChannelNotRegistered")
                let listedAfter = try await client.send(method: "GET", path: "/1/apps/\(Self.bundle)/all-channels")
                #expect((listedAfter.json?["channels"] as? [String])?.contains(id) == false)
                try await client.close()
            }
            // The channels port serves channel management only.
            let channelsOnly = try await HTTP2TestClient.connect(
                host: "127.0.0.1", port: emulator.channelsPort, caPath: emulator.caPath)
            let device = try await channelsOnly.push(token: String(repeating: "ab", count: 32))
            #expect(device.status == 404 && device.reason == "BadPath")
            let journal = try await emulator.journal("interface=broadcast")
            #expect(
                journal.contains {
                    $0["operation"] as? String == "create" && $0["status"] as? String == "accepted"
                        && $0["httpStatus"] as? Int == 201
                })
        }
    }

    // Apple, "Handling error responses from APNs": the reasons of the channel APIs, with their statuses.
    /// A channel-management or broadcast answer: the status and reason expected, with a request id.
    private static func check(
        _ response: HTTP2TestClient.Response, _ status: Int, _ reason: String, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(
            response.status == status && response.reason == reason, "\(response.status) \(response.reason ?? "-")",
            sourceLocation: sourceLocation)
        #expect(response.header("apns-request-id") != nil, sourceLocation: sourceLocation)
    }

    @Test("every management and publishing refusal: its reason and status")
    func refusals() async throws {
        try await withEmulator { emulator in
            let client = try await emulator.http2Client()
            let id = try await Self.channel(client, policy: "0")
            Self.check(
                try await client.send(
                    path: Self.channelsPath,
                    body: Array(#"{"message-storage-policy": 1, "push-type": "LiveActivity", "colour": 1}"#.utf8)), 400,
                "BadRequestParams")
            Self.check(
                try await client.send(path: Self.channelsPath, body: Array(#"{"message-storage-policy": 1"#.utf8)), 400,
                "BadRequestPayload")
            Self.check(
                try await client.send(path: Self.channelsPath, body: Array(#"{"message-storage-policy": 1}"#.utf8)), 400,
                "MissingPushType")
            Self.check(
                try await client.send(
                    path: Self.channelsPath, body: Array(#"{"message-storage-policy": 1, "push-type": "alert"}"#.utf8)), 400,
                "InvalidPushType")
            Self.check(
                try await client.send(
                    path: Self.channelsPath, body: Array(#"{"message-storage-policy": 2, "push-type": "LiveActivity"}"#.utf8)),
                400, "BadRequestParams")
            Self.check(try await client.send(path: Self.channelsPath, body: []), 400, "PayloadEmpty")
            Self.check(try await client.send(method: "GET", path: Self.channelsPath), 400, "MissingChannelId")
            Self.check(
                try await client.send(method: "GET", path: Self.channelsPath, headers: [("apns-channel-id", "not base64!")]), 400,
                "BadChannelId")
            Self.check(
                try await client.send(
                    method: "GET", path: Self.channelsPath, headers: [("apns-channel-id", "dHN0LXNyY2gtY2hubA==")]), 400,
                "ChannelNotRegistered")
            Self.check(try await client.send(method: "PUT", path: Self.channelsPath), 405, "MethodNotAllowed")
            Self.check(try await client.send(method: "GET", path: "/1/apps/\(Self.bundle)/channel"), 404, "BadPath")
            Self.check(try await Self.create(client, headers: [("apns-request-id", "request-1")]), 400, "BadMessageId")
            Self.check(try await Self.create(client, bundle: Self.bundle + ".push-type.liveactivity"), 400, "TopicDisallowed")
            try await self.publishRefusals(emulator, client, channel: id)
        }
    }

    /// A broadcast's refusals, and what node-apn sends taken with a warning.
    private func publishRefusals(_ emulator: RunningEmulator, _ client: HTTP2TestClient, channel id: String) async throws {
        let update = LiveActivityTests.update(LiveActivityTests.now, "x")
        Self.check(
            try await Self.publish(client, id, update, expiration: "\(LiveActivityTests.now + 60)"), 400, "BadExpirationDate")
        Self.check(try await Self.publish(client, id, update, priority: "7"), 400, "BadPriority")
        Self.check(
            try await client.send(
                path: Self.publishPath,
                headers: [("apns-channel-id", id), ("apns-expiration", "0"), ("apns-priority", "10")],
                body: Array(update.utf8)), 400, "MissingPushType")
        Self.check(try await Self.publish(client, id, update, extra: [("apns-push-type", "alert")]), 400, "DuplicateHeaders")
        Self.check(try await Self.publish(client, id, #"{"aps": "#), 400, "BadRequestPayload")
        Self.check(
            try await Self.publish(client, id, #"{"aps": {"x": "\#(String(repeating: "y", count: 5200))"}}"#), 413,
            "PayloadTooLarge")
        Self.check(
            try await client.send(
                path: Self.publishPath,
                headers: [("apns-push-type", "LiveActivity"), ("apns-expiration", "0"), ("apns-priority", "10")],
                body: Array(update.utf8)), 400, "MissingChannelId")
        Self.check(try await client.send(method: "GET", path: Self.publishPath), 405, "MethodNotAllowed")
        // node-apn 7 sends the push type in lower case and the policy as a string: taken, with a warning.
        let lenient = try await client.send(
            path: Self.channelsPath, body: Array(#"{"message-storage-policy": "1", "push-type": "liveactivity"}"#.utf8))
        #expect(
            lenient.status == 201 && lenient.header("apns-emulator-warning")?.contains("Apple documents a number") == true)
        #expect(try await Self.publish(client, id, update, extra: []).status == 200)
        let rejected = try await emulator.journal("interface=broadcast&status=rejected")
        #expect(
            rejected.contains { $0["reason"] as? String == "BadChannelId" && $0["channelId"] as? String == "not base64!" })
    }

    // "Setting up broadcast push notifications": an activity subscribes with pushType .channel(id);
    // one broadcast updates every subscriber, under the same rules as a push to its own token.
    @Test(
        "a broadcast reaches every subscribed activity, in order; the journal tells the fan-out; an unknown channel makes the start fail"
    )
    func fanOut() async throws {
        try await withEmulator { emulator in
            let client = try await emulator.http2Client()
            let id = try await Self.channel(client)
            let first = try await Self.subscriber(emulator, channel: id)
            let second = try await Self.subscriber(emulator, channel: id)
            let now = LiveActivityTests.now
            let sent = try await Self.publish(
                client, id, LiveActivityTests.update(now + 10, "kick-off"), expiration: "\(now + 3600)")
            #expect(sent.status == 200 && sent.header("apns-channel-id") == id)
            let uniqueID = try #require(sent.header("apns-unique-id"))
            let statuses = [try await Self.status(emulator, first.activity), try await Self.status(emulator, second.activity)]
            #expect(statuses == ["kick-off", "kick-off"])
            let entry = try await emulator.adminObject("/api/v1/notifications/\(uniqueID)")
            #expect(
                entry["source"] as? String == "broadcast" && entry["channelId"] as? String == id && entry["fanOut"] as? Int == 2)
            #expect((entry["outcomes"] as? [[String: Any]])?.allSatisfy { $0["outcome"] as? String == "applied" } == true)
            // An older timestamp is ignored by each activity, as for a push to its own token.
            #expect(
                try await Self.publish(client, id, LiveActivityTests.update(now, "stale"), expiration: "\(now + 3600)").status
                    == 200)
            #expect(try await Self.status(emulator, first.activity) == "kick-off")
            let channel = try await emulator.adminObject("/api/v1/channels/\(id)")
            #expect(
                channel["subscribers"] as? Int == 2 && channel["published"] as? Int == 2
                    && channel["messageStoragePolicy"] as? Int == 1)
            let metrics = try await emulator.admin("/metrics").text
            #expect(metrics.contains("apns_broadcasts_published_total 2") && metrics.contains("apns_broadcast_subscriptions 2"))
            let (token, _) = try await LiveActivityTests.app(emulator)
            let unknown =
                #"{"attributes-type": "Delivery", "attributes": {"order": 1}, "content-state": {"status": "new"}, "pushType": {"channel": "dHN0LXNyY2gtY2hubA=="}}"#
            let refused = try await emulator.admin("/api/v1/devices/\(token)/activities", method: "POST", body: unknown)
            #expect(refused.status == 409 && refused.text.contains("no broadcast channel"))
        }
    }

    @Test(
        "policy 1 hands its latest message to a later subscriber, policy 0 does not; a deleted channel takes no more broadcasts")
    func storagePolicies() async throws {
        try await withEmulator { emulator in
            let client = try await emulator.http2Client()
            let stored = try await Self.channel(client, policy: "1")
            let unstored = try await Self.channel(client, policy: "0")
            let now = LiveActivityTests.now
            #expect(
                try await Self.publish(
                    client, stored, LiveActivityTests.update(now + 5, "half-time"), expiration: "\(now + 3600)"
                ).status == 200)
            #expect(try await Self.publish(client, unstored, LiveActivityTests.update(now + 5, "half-time")).status == 200)
            let late = try await Self.subscriber(emulator, channel: stored)
            let lateWithout = try await Self.subscriber(emulator, channel: unstored)
            let handed = await eventually { (try? await Self.status(emulator, late.activity)) == "half-time" }
            #expect(handed, "a policy-1 channel's stored message reaches a subscriber that comes later")
            #expect(try await Self.status(emulator, lateWithout.activity) == "new")
            #expect(
                try await client.send(method: "DELETE", path: Self.channelsPath, headers: [("apns-channel-id", unstored)]).status
                    == 204)
            let after = try await Self.publish(client, unstored, LiveActivityTests.update(now + 9, "late"))
            #expect(after.status == 400 && after.reason == "ChannelNotRegistered")
        }
    }
}

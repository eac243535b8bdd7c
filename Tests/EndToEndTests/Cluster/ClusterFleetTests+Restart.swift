import APNsCore
import APNsDeviceClient
import APNsTestSupport
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The fleet's later steps: a broadcast, then a shard killed and restarted.
extension ClusterFleetTests {
    /// A channel made through HAProxy lands on the shard its bundle hashes to; a broadcast on it
    /// reaches an activity on every shard.
    static func broadcast(
        _ shards: [ShardProcess], fleet: [(device: DeviceClient, token: DeviceToken)], front: Int, ca: String
    ) async throws {
        let bundle = LiveActivityTests.bundle
        let provider = try await HTTP2TestClient.connect(host: "127.0.0.1", port: front, caPath: ca)
        let created = try await provider.send(
            path: "/1/apps/\(bundle)/channels", body: Array(#"{"message-storage-policy": 0, "push-type": "LiveActivity"}"#.utf8))
        let channel = try #require(created.header("apns-channel-id"), "\(created.status) \(created.reason ?? "")")
        let owner = Shard.index(ofBundle: bundle, count: 3)
        for shard in shards {
            let journal = try await Self.admin(shard, "/api/v1/notifications?interface=broadcast&scope=local")
            #expect(
                (journal.json["total"] as? Int) == (shard.index == owner ? 1 : 0),
                "the create reached shard \(owner) only (HAProxy's crc32 and the emulator's agree)")
        }
        // One subscriber on each shard, started in the app through shard 0's admin API.
        var activities: [(token: String, id: String)] = []
        for index in 0..<3 {
            let device = try #require(fleet.first { Shard.index(of: $0.token, count: 3) == index }).device
            let token = try await device.register(topic: bundle).hex
            let app = try await Self.admin(
                shards[0], "/api/v1/devices/\(token)/app", method: "PUT", body: #"{"activityTypes": \#(LiveActivityTests.types)}"#
            )
            #expect(app.status == 200, "\(app.json)")
            let start =
                #"{"attributes-type": "Delivery", "attributes": {"order": \#(index)}, "content-state": {"status": "new"}, "pushType": {"channel": "\#(channel)"}}"#
            let started = try await Self.admin(shards[0], "/api/v1/devices/\(token)/activities", method: "POST", body: start)
            #expect(started.status == 201, "shard \(index) knows the channel: \(started.json)")
            activities.append((token, started.json["id"] as? String ?? ""))
        }
        let published = try await provider.send(
            path: "/4/broadcasts/apps/\(bundle)",
            headers: [
                ("apns-channel-id", channel), ("apns-push-type", "LiveActivity"), ("apns-expiration", "0"),
                ("apns-priority", "10"),
            ],
            body: Array(
                #"{"aps": {"event": "update", "timestamp": \#(LiveActivityTests.now), "content-state": {"status": "goal"}}}"#.utf8
            ))
        #expect(published.status == 200, "\(published.reason ?? "")")
        for (token, id) in activities {
            let listed = try await Self.admin(shards[0], "/api/v1/devices/\(token)/activities")
            let activity = (listed.json["items"] as? [[String: Any]])?.first { $0["id"] as? String == id }
            #expect(
                (activity?["contentState"] as? [String: Any])?["status"] as? String == "goal",
                "the subscriber on shard \(DeviceToken(hex: token).map { Shard.index(of: $0, count: 3) } ?? -1): \(listed.json)")
        }
        for (_, id) in activities {
            #expect(
                try await Self.admin(shards[1], "/api/v1/activities/\(id)").status == 200, "an activity is found from any shard")
        }
        if let unique = published.header("apns-unique-id") {
            let record = try await Self.admin(shards[2], "/api/v1/notifications/\(unique)")
            #expect(record.json["fanOut"] as? Int == 3, "\(record.json)")
        }
        try await provider.close()
    }

    /// Shard 1 killed with notifications queued for devices away: its tokens get 503, the others
    /// 200; restarted on its store, it hands the queued ones over when the devices come back.
    static func killAndRestart(
        _ shards: [ShardProcess], fleet: [(device: DeviceClient, token: DeviceToken)], front: Int, deviceFront: Int, ca: String,
        balancer: BackgroundProcess, shared: TemporaryDirectory
    ) async throws {
        let away = Array(fleet.filter { Shard.index(of: $0.token, count: 3) == 1 }.prefix(5))
        for (device, _) in away { try await device.close() }
        let provider = try await HTTP2TestClient.connect(host: "127.0.0.1", port: front, caPath: ca)
        var queued: [String: String] = [:]
        for (_, token) in away {
            let answer = try await provider.push(
                token: token.hex, headers: [("apns-topic", Self.topic)], json: #"{"aps":{"alert":"queued on shard 1"}}"#)
            #expect(answer.status == 200)
            queued[token.hex] = answer.header("apns-unique-id")
        }
        // A stream of shard 0's opened before: it says when shard 1 goes, and comes back.
        let stream = try await AdminEventStream.open(
            host: "127.0.0.1", port: shards[0].admin, path: "/api/v1/events?topic=\(Self.topic)")
        _ = try await stream.waitForEvents(1, kind: "shards")
        func said(_ answered: [Int]) -> Int? {
            stream.events.filter { $0.kind == "shards" }.lastIndex { ($0.data["answered"] as? [Int])?.sorted() == answered }
        }
        let process = try #require(shards[1].process)
        Foundation.kill(process.pid, SIGKILL)
        _ = await process.wait()
        #expect(await eventually { balancer.lines.contains { $0.contains("shard1 is DOWN") } }, "\(balancer.lines)")
        let down = try await provider.push(token: try #require(away.first).token.hex, topic: Self.topic)
        #expect(down.status == 503 && down.reason == "ServiceUnavailable", "\(down.status) \(down.reason ?? "")")
        for index in [0, 2] {
            let token = try #require(fleet.first { Shard.index(of: $0.token, count: 3) == index }).token
            #expect(try await provider.push(token: token.hex, topic: Self.topic).status == 200)
        }
        let partial = try await Self.admin(shards[0], "/api/v1/notifications?limit=1")
        let unanswered = (partial.json["shards"] as? [String: Any])?["unanswered"] as? [[String: Any]]
        #expect(unanswered?.compactMap { $0["shard"] as? Int } == [1], "\(partial.json["shards"] ?? "")")

        #expect(await eventually { said([0, 2]) != nil }, "the stream says shard 1 is gone: \(stream.events.map(\.json))")
        try await Self.inbox(shards[2], answered: "0,2", missing: "1")
        // A channel made while shard 1 is down, for a bundle shard 2 owns.
        let bundle = Self.topic
        #expect(Shard.index(ofBundle: bundle, count: 3) == 2)
        let made = try await provider.send(
            path: "/1/apps/\(bundle)/channels", body: Array(#"{"message-storage-policy": 1, "push-type": "LiveActivity"}"#.utf8))
        let missed = try #require(made.header("apns-channel-id"), "\(made.status) \(made.reason ?? "")")

        try await Self.restart(
            shards, away: away, queued: queued, missed: missed, provider: provider, stream: stream, deviceFront: deviceFront,
            ca: ca, balancer: balancer, shared: shared)
        try await stream.close()
        try await provider.close()
    }

    /// Shard 1 back on its store: it learns the channel it missed, hands over what it had queued,
    /// and the event stream opened before the kill takes it back.
    static func restart(
        _ shards: [ShardProcess], away: [(device: DeviceClient, token: DeviceToken)], queued: [String: String], missed: String,
        provider: HTTP2TestClient,
        stream: AdminEventStream, deviceFront: Int, ca: String, balancer: BackgroundProcess, shared: TemporaryDirectory
    ) async throws {
        func said(_ answered: [Int]) -> Int? {
            stream.events.filter { $0.kind == "shards" }.lastIndex { ($0.data["answered"] as? [Int])?.sorted() == answered }
        }
        try await Self.start(shards[1], of: shards, in: shared)
        // Restarted, it asks the others for the channels they own: it knows the one it missed.
        let encoded = missed.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? missed
        #expect(
            await eventually(timeout: .seconds(20)) {
                (try? await Self.admin(shards[1], "/api/v1/channels/\(encoded)?scope=local"))?.status == 200
            })
        for (_, token) in away {
            // Through HAProxy, once its check has seen shard 1 back (if it ever saw it gone).
            var reconnected: DeviceClient?
            _ = await eventually(timeout: .seconds(30)) {
                guard
                    let client = try? await DeviceClient.connect(
                        host: "127.0.0.1", port: deviceFront, caPath: ca, deviceID: "back-\(token.hex.prefix(8))",
                        serverName: "s1.devices.localhost")
                else { return false }
                if (try? await client.resume([token]))?.first?.status == .resumed {
                    reconnected = client
                    return true
                }
                try? await client.close()
                return false
            }
            let back = try #require(
                reconnected, "a device of shard 1 could not resume its token through HAProxy: \(balancer.lines)")
            #expect(
                try await back.next(within: .seconds(30)).uniqueID == queued[token.hex],
                "what shard 1 had queued before it was killed")
            try await back.close()
        }
        // The stream took shard 1 back on its own, and carries its events again.
        #expect(
            await eventually(timeout: .seconds(20)) { (said([0, 1, 2]) ?? -1) > (said([0, 2]) ?? Int.max) },
            "\(stream.events.map(\.json))")
        // HAProxy checks the provider backend on its own schedule, apart from the device front's:
        // until it has seen shard 1 back it answers 503 ServiceUnavailable itself (nothing stored),
        // and on a busy machine that outlasted the devices' resumption (issue 37). Any other
        // answer ends the wait.
        let token = try #require(away.first).token.hex
        var again: HTTP2TestClient.Response?
        _ = await eventually(timeout: .seconds(30)) {
            again = try? await provider.push(
                token: token, headers: [("apns-topic", Self.topic)], json: #"{"aps":{"alert":"after the restart"}}"#)
            return again.map { $0.status != 503 } ?? false
        }
        #expect(again?.status == 200, "a push to shard 1 through HAProxy after its restart: \(String(describing: again))")
        let againID = try #require(again?.header("apns-unique-id"))
        #expect(
            await eventually { stream.events.contains { $0.kind == "accepted" && $0.data["id"] as? String == againID } },
            "shard 1's push in shard 0's stream")
    }
}

import APNsCore
import APNsDeviceClient
import APNsTestSupport
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Issue 29 end to end: three `apns-emulator serve --shard K/3 --cluster-peers ...` processes
/// behind Debian's HAProxy with the configuration `cluster haproxy-config` writes. A thousand
/// devices connect through HAProxy; h2load and aioapns push to every one through it; any shard's
/// admin API shows all of it; a broadcast reaches subscribers on every shard; a shard killed
/// with SIGKILL is 503 for its tokens only and, restarted, delivers what it had queued.
@Suite("A cluster of three shard processes behind HAProxy")
struct ClusterFleetTests {
    static let topic = "com.example.fleet"
    static let deviceCount = 1000

    @Test(
        "1,000 devices through HAProxy; h2load and aioapns reach every one; any shard lists, waits and counts for all; a broadcast reaches every shard's subscribers; a killed shard is 503 for its tokens only and, restarted, delivers its queue"
    )
    func fleet() async throws {
        let haproxy = HAProxy.path
        try #require(haproxy != nil, "haproxy is not installed: apt-get install haproxy (.ci/run installs it)")
        let h2load = ["/usr/bin/h2load", "/usr/local/bin/h2load"].first { FileManager.default.isExecutableFile(atPath: $0) }
        try #require(h2load != nil, "h2load is not installed: apt-get install nghttp2-client (.ci/run installs it)")
        let shared = try TemporaryDirectory()
        let shards = try (0..<3).map { try ShardProcess(index: $0) }
        // The first shard makes the CA and server certificate the others and HAProxy share.
        defer { for shard in shards { if let pid = shard.process?.pid { Foundation.kill(pid, SIGKILL) } } }
        for shard in shards { try await Self.start(shard, of: shards, in: shared) }
        let (front, deviceFront) = (try LoopbackPorts.free(), try LoopbackPorts.free())
        let ca = shared.appending("certs/ca.pem")
        let written = try await Subprocess.run(
            Subprocess.emulatorExecutable,
            [
                "cluster", "haproxy-config", "--shards", "3", "--hosts",
                shards.map { "127.0.0.1:\($0.http2)" }.joined(separator: ","),
                "--device-hosts", shards.map { "127.0.0.1:\($0.device)" }.joined(separator: ","), "--listen",
                "127.0.0.1:\(front)",
                "--device-listen", "127.0.0.1:\(deviceFront)", "--certs-dir", shared.appending("certs"), "--out",
                shared.appending("haproxy"),
            ])
        try #require(written.status == 0, "\(written.stdout)\(written.stderr)")
        let balancer = try BackgroundProcess(
            try #require(haproxy), ["-db", "-f", shared.appending("haproxy/haproxy.cfg")], output: shared.appending("haproxy.log")
        )
        defer { Foundation.kill(balancer.pid, SIGTERM) }
        _ = await eventually { (try? await HTTP2TestClient.connect(host: "127.0.0.1", port: front, caPath: ca)) != nil }

        // A thousand devices through HAProxy: each gets a token of the shard it reached.
        let fleet = try await Self.connectFleet(Self.deviceCount, port: deviceFront, ca: ca)
        let tokens = fleet.map(\.token.hex)
        let perShard = Dictionary(grouping: fleet.map(\.token)) { Shard.index(of: $0, count: 3) }.mapValues(\.count)
        #expect(fleet.count == Self.deviceCount && perShard.count == 3, "devices per shard: \(perShard)")

        try await Self.pushToEveryDevice(fleet, front: front, ca: ca, h2load: try #require(h2load), shared: shared)

        try await Self.mergedViews(shards, tokens: tokens)
        try await Self.mergedEvents(shards, fleet: fleet, front: front, ca: ca)
        try await Self.faults(shards, fleet: fleet, front: front, ca: ca)
        try await Self.broadcast(shards, fleet: fleet, front: front, ca: ca)
        try await Self.killAndRestart(
            shards, fleet: fleet, front: front, deviceFront: deviceFront, ca: ca, balancer: balancer, shared: shared)
        for (device, _) in fleet { try? await device.close() }
        try shared.remove()
    }

    /// h2load and aioapns push to every device through HAProxy, one push each; every device gets
    /// both (and acknowledges them, as a device does).
    static func pushToEveryDevice(
        _ fleet: [(device: DeviceClient, token: DeviceToken)], front: Int, ca: String, h2load: String, shared: TemporaryDirectory
    ) async throws {
        let tokens = fleet.map(\.token.hex)
        // h2load pushes to every token through HAProxy, one request each.
        let uris = tokens.map { "https://127.0.0.1:\(front)/3/device/\($0)" }.joined(separator: "\n") + "\n"
        try uris.write(toFile: shared.appending("uris"), atomically: true, encoding: .utf8)
        try #"{"aps":{"alert":"from h2load"}}"#.write(toFile: shared.appending("payload.json"), atomically: true, encoding: .utf8)
        let loaded = try await Subprocess.run(
            h2load,
            [
                "-n", String(Self.deviceCount), "-c", "1", "-m", "20", "-i", shared.appending("uris"), "-d",
                shared.appending("payload.json"),
                "-H", "apns-topic: \(Self.topic)", "-H", "apns-push-type: alert",
            ])
        #expect(loaded.stdout.contains("status codes: \(Self.deviceCount) 2xx"), "\(loaded.stdout)\(loaded.stderr)")

        // aioapns, configured as for Apple with only host, port and CA swapped, does the same.
        try tokens.joined(separator: "\n").write(toFile: shared.appending("tokens"), atomically: true, encoding: .utf8)
        let python = ProcessInfo.processInfo.environment["APNS_EMULATOR_PYTHON"] ?? "python3"
        let script = Checkout.thirdParty("fleet_client.py")
        let library = try await Subprocess.run(
            python, [script, "127.0.0.1", String(front), ca, Self.topic, shared.appending("tokens")])
        let statuses =
            (try? JSONSerialization.jsonObject(with: Data(library.stdout.utf8)) as? [String: Any])?["statuses"] as? [String: Int]
        try #require(statuses == ["200": Self.deviceCount], "\(library.stdout)\(library.stderr)")

        // Every device got both.
        let received = try await withThrowingTaskGroup(of: [String].self) { group in
            for (device, _) in fleet {
                group.addTask {
                    // Acknowledged, as a device does: what is not stays queued for the next connection.
                    var texts: [String] = []
                    for _ in 0..<2 {
                        let notification = try await device.next(within: .seconds(120))
                        try await device.acknowledge(notification.uniqueID)
                        texts.append(notification.payloadText)
                    }
                    try await device.ping()
                    return texts
                }
            }
            return try await group.reduce(into: [String: Int]()) { counts, texts in
                for text in texts { counts[text, default: 0] += 1 }
            }
        }
        #expect(received.values.reduce(0, +) == 2 * Self.deviceCount, "\(received)")
    }

    /// Any shard's admin API answers for all three, and says so.
    static func mergedViews(_ shards: [ShardProcess], tokens: [String]) async throws {
        let listed = try await Self.admin(shards[0], "/api/v1/notifications?topic=\(Self.topic)&limit=1000")
        #expect(
            listed.json["total"] as? Int == 2 * Self.deviceCount, "\(listed.json["total"] ?? "") \(listed.json["shards"] ?? "")")
        let items = listed.json["items"] as? [[String: Any]] ?? []
        #expect(
            Set(items.compactMap { $0["token"] as? String }) == Set(tokens), "the newest thousand (aioapns's) name every device")
        #expect((listed.json["shards"] as? [String: Any])?["answered"] as? [Int] == [0, 1, 2])
        let local = try await Self.admin(shards[0], "/api/v1/notifications?topic=\(Self.topic)&scope=local")
        #expect(
            (local.json["total"] as? Int ?? 0) < 2 * Self.deviceCount && local.json["shards"] == nil,
            "scope=local is one shard's journal")

        // A notification of shard 2, read and waited for through shard 0.
        let elsewhere = try #require(items.first { Shard.index(ofUniqueID: $0["id"] as? String ?? "", count: 3) == 2 })
        let id = try #require(elsewhere["id"] as? String)
        let read = try await Self.admin(shards[0], "/api/v1/notifications/\(id)")
        #expect(read.status == 200 && read.json["id"] as? String == id)
        let token = try #require(elsewhere["token"] as? String)
        let waited = try await Self.admin(shards[1], "/api/v1/notifications/wait?token=\(token)&timeout=5s")
        #expect(waited.status == 200 && waited.json["token"] as? String == token)
        let sent = try await Self.admin(
            shards[0], "/api/v1/push", method: "POST",
            body: #"{"token": "\#(token)", "topic": "\#(Self.topic)", "payload": {"aps": {"alert": "from the inbox"}}}"#)
        let sentID = try #require(sent.json["uniqueId"] as? String, "\(sent.json)")
        #expect(
            sent.json["status"] as? Int == 200 && Shard.index(ofUniqueID: sentID, count: 3) == 2,
            "the admin API's push went to the shard that owns the token")
        let device = try await Self.admin(shards[0], "/api/v1/devices/\(token)/app")
        #expect(device.status == 200, "a device's routes reach the shard that owns its token: \(device.json)")

        let devices = try await AdminTestClient.request(host: "127.0.0.1", port: shards[2].admin, path: "/api/v1/devices")
        let listedDevices = (try? devices.json() as? [[String: Any]]) ?? []
        #expect(
            Set(listedDevices.compactMap { $0["token"] as? String }).isSuperset(of: tokens), "every shard's devices, from shard 2"
        )
        #expect(devices.header("apns-emulator-shards") == "answered=0,1,2; unanswered=")
        try await Self.inbox(shards[0], answered: "0,1,2")

        let metrics = try await AdminTestClient.request(host: "127.0.0.1", port: shards[1].admin, path: "/metrics").text
        #expect(
            metrics.contains("apns_cluster_shards_answered 3") && metrics.contains(#"shard="0""#)
                && metrics.contains(#"shard="2""#))
    }

    /// One shard's event stream carries every shard's events, and says which shards it holds.
    static func mergedEvents(
        _ shards: [ShardProcess], fleet: [(device: DeviceClient, token: DeviceToken)], front: Int, ca: String
    ) async throws {
        let stream = try await AdminEventStream.open(
            host: "127.0.0.1", port: shards[0].admin, path: "/api/v1/events?topic=\(Self.topic)")
        let announced = try await stream.waitForEvents(1, kind: "shards")
        #expect((announced.last?.data["answered"] as? [Int])?.sorted() == [0, 1, 2], "\(announced.map(\.json))")
        let provider = try await HTTP2TestClient.connect(host: "127.0.0.1", port: front, caPath: ca)
        var pushed: Set<String> = []
        for index in [1, 2] {
            // The last device of each shard (the first ones of shard 1 go away later).
            let token = try #require(fleet.last { Shard.index(of: $0.token, count: 3) == index }).token
            let answer = try await provider.push(
                token: token.hex, headers: [("apns-topic", Self.topic)], json: #"{"aps":{"alert":"heard on shard 0"}}"#)
            pushed.insert(try #require(answer.header("apns-unique-id")))
        }
        let accepted = try await stream.waitForEvents(2, kind: "accepted")
        #expect(
            pushed.isSubset(of: Set(accepted.compactMap { $0.data["id"] as? String })),
            "shards 1 and 2's pushes in shard 0's stream")
        try await provider.close()
        try await stream.close()
    }

    /// Fault rules added on any shard: one for a token lives on the token's shard (its id names
    /// it); one for every token on every shard; both are listed and removed from any shard.
    static func faults(
        _ shards: [ShardProcess], fleet: [(device: DeviceClient, token: DeviceToken)], front: Int, ca: String
    ) async throws {
        let provider = try await HTTP2TestClient.connect(host: "127.0.0.1", port: front, caPath: ca)
        let target = try #require(fleet.last { Shard.index(of: $0.token, count: 3) == 2 }).token.hex
        let added = try await Self.admin(
            shards[0], "/api/v1/faults", method: "POST",
            body: #"{"match": {"token": "\#(target)"}, "action": {"type": "respond", "reason": "TooManyRequests"}}"#)
        let id = try #require(added.json["id"] as? String, "\(added.json)")
        #expect(added.status == 201 && id.hasPrefix("s2-fault-"), "a token's rule lives on its shard: \(id)")
        let refused = try await provider.push(token: target, topic: Self.topic)
        #expect(refused.status == 429 && refused.reason == "TooManyRequests")
        #expect(try await Self.admin(shards[1], "/api/v1/faults/\(id)").status == 200, "read from another shard")

        let everywhere = try await Self.admin(
            shards[1], "/api/v1/faults", method: "POST",
            body: #"{"match": {"topic": "\#(Self.topic)"}, "action": {"type": "respond", "reason": "Unregistered"}}"#)
        #expect((everywhere.json["shards"] as? [String: Any])?["answered"] as? [Int] == [0, 1, 2], "\(everywhere.json)")
        for index in [0, 1] {
            let token = try #require(fleet.last { Shard.index(of: $0.token, count: 3) == index }).token.hex
            #expect(
                try await provider.push(token: token, topic: Self.topic).reason == "Unregistered",
                "shard \(index) has the rule")
        }
        let listed = try await AdminTestClient.request(host: "127.0.0.1", port: shards[0].admin, path: "/api/v1/faults")
        #expect(
            ((try? listed.json() as? [[String: Any]]) ?? []).count == 4, "one rule on shard 2, one on every shard: \(listed.text)"
        )
        let cleared = try await Self.admin(shards[2], "/api/v1/faults", method: "DELETE")
        #expect(cleared.status == 200 && (cleared.json["shards"] as? [String: Any])?["answered"] as? [Int] == [0, 1, 2])
        #expect(
            try await provider.push(token: target, topic: Self.topic).status == 200, "no rule left anywhere")
        try await provider.close()
    }

    /// One shard's web inbox in headless Chromium (`Tests/ThirdParty/inbox_cluster_browser.py`):
    /// the header says how many shards answered, the list holds notifications of those.
    static func inbox(_ shard: ShardProcess, answered: String, missing: String = "") async throws {
        let python = ProcessInfo.processInfo.environment["APNS_EMULATOR_PYTHON"] ?? "python3"
        let script = Checkout.thirdParty("inbox_cluster_browser.py")
        let run = try await Subprocess.run(
            "timeout", ["120", python, script, "http://127.0.0.1:\(shard.admin)", "3", answered, missing])
        #expect(run.status == 0, "the inbox of shard \(shard.index):\n\(run.stdout.suffix(2000))\n\(run.stderr.suffix(2000))")
    }
}

extension APNsCore.Notification {
    /// The payload as text.
    fileprivate var payloadText: String { String(decoding: self.payload, as: UTF8.self) }
}

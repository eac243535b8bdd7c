import APNsCore
import APNsTestSupport
import Foundation
import Testing

@Suite("Admin API: wait, reset, events, health")
struct AdminWaitResetTests {
    static let topic = "com.example.app"

    @Test("wait returns a notification already there, one that arrives while waiting, the next one after another, or 408")
    func wait() async throws {
        try await withEmulator(configure: { $0.storagePolicy = .all }) { emulator in
            let token = String(repeating: "f1", count: 32)
            let provider = try await emulator.http2Client()
            let first = try await provider.push(token: token, topic: Self.topic, json: #"{"n":1}"#)

            let already = try await emulator.adminObject("/api/v1/notifications/wait?token=\(token)&timeout=2s")
            #expect(already["uniqueId"] as? String == first.header("apns-unique-id"))

            // A wait for what comes after the first one: pending until the provider pushes again.
            let firstID = try #require(first.header("apns-unique-id"))
            async let waited = emulator.adminObject(
                "/api/v1/notifications/wait?token=\(token)&topic=\(Self.topic)&after=\(firstID)&timeout=10s")
            #expect(await eventually { emulator.emulator.inspection.journal.pendingWaits == 1 })
            let second = try await provider.push(token: token, topic: Self.topic, json: #"{"n":2}"#)
            let arrived = try await waited
            #expect(arrived["uniqueId"] as? String == second.header("apns-unique-id"))
            #expect((arrived["payload"] as? [String: Any])?["n"] as? Int == 2)

            // A rejected push does not satisfy a wait for an accepted one, and the wait times out.
            #expect(
                try await provider.push(token: String(repeating: "f2", count: 32), headers: [("apns-push-type", "bogus")]).status
                    == 400)
            let missed = try await emulator.admin(
                "/api/v1/notifications/wait?token=\(String(repeating: "f2", count: 32))&timeout=300ms")
            #expect(missed.status == 408)
            // The 408 says what came closest and why each did not match (newest first).
            let nearMisses = try #require((try missed.json() as? [String: Any])?["nearMisses"] as? [[String: Any]])
            #expect(nearMisses.count == 3, "\(nearMisses)")
            #expect((nearMisses.first?["failed"] as? [String])?.first?.contains("was rejected") == true, "\(nearMisses)")
            #expect(
                (nearMisses.last?["failed"] as? [String]) == [
                    "token: wanted \(String(repeating: "f2", count: 32)), was \(token)"
                ], "\(nearMisses)")
            let wrongTopic = try await emulator.admin(
                "/api/v1/notifications/wait?token=\(token)&topic=com.example.other&after=\(firstID)&timeout=100ms")
            let topicMisses = try #require((try wrongTopic.json() as? [String: Any])?["nearMisses"] as? [[String: Any]])
            #expect(
                topicMisses.count == 2
                    && (topicMisses.last?["failed"] as? [String]) == ["topic: wanted com.example.other, was \(Self.topic)"],
                "\(topicMisses)")
            let rejected = try await emulator.adminObject(
                "/api/v1/notifications/wait?token=\(String(repeating: "f2", count: 32))&status=rejected&timeout=1s")
            #expect(rejected["reason"] as? String == "InvalidPushType")

            #expect(try await emulator.admin("/api/v1/notifications/wait?timeout=forever").status == 400)
            #expect(try await emulator.admin("/api/v1/notifications/wait?timeout=301s").status == 400)
            #expect(try await emulator.admin("/api/v1/notifications/wait?after=unknown").status == 400)
        }
    }

    @Test("reset empties queues, journal, feedback, faults and counters; devices stay unless asked")
    func reset() async throws {
        try await withEmulator { emulator in
            let registered = try await emulator.adminObject(
                "/api/v1/devices", method: "POST", body: #"{"topic":"\#(Self.topic)"}"#, status: 201)
            let token = try #require(registered["token"] as? String)
            let provider = try await emulator.http2Client()
            #expect(try await provider.push(token: token, topic: Self.topic).status == 200)
            let removed = try await emulator.offlineToken(topic: Self.topic, device: "removed")
            _ = try await emulator.admin("/api/v1/devices/\(removed.hex)/unregister", method: "POST")
            _ = try await emulator.adminObject(
                "/api/v1/faults", method: "POST", body: #"{"match":{"topic":"nothing.here"},"action":{"type":"reset"}}"#,
                status: 201)
            #expect(try await (emulator.admin("/api/v1/feedback").json() as? [Any])?.count == 1)

            let answer = try await emulator.adminObject("/api/v1/reset", method: "POST")
            #expect(answer["reset"] as? Bool == true)
            #expect(try await emulator.journal().isEmpty)
            #expect(try await emulator.queued(token).isEmpty)
            #expect(try await (emulator.admin("/api/v1/feedback").json() as? [Any])?.isEmpty == true)
            #expect(try await (emulator.admin("/api/v1/faults").json() as? [Any])?.isEmpty == true)
            let metrics = try await emulator.admin("/metrics").text
            #expect(metrics.contains(#"apns_notifications_accepted_total{interface="http2"} 0"#))
            // The registered token is still valid: a push to it is accepted, and only it is in the journal.
            #expect(try await provider.push(token: token, topic: Self.topic).status == 200)
            #expect(try await emulator.journal().count == 1)

            _ = try await emulator.adminObject("/api/v1/reset?devices=true", method: "POST")
            let devices = try #require(try await emulator.admin("/api/v1/devices").json() as? [Any])
            #expect(devices.isEmpty)
        }
    }

    @Test("the event stream tells accepted, presented, delivered, rejected and discarded, in order, filtered by token")
    func events() async throws {
        try await withEmulator { emulator in
            let device = try await emulator.device()
            let token = try await device.register(topic: Self.topic)
            let stream = try await AdminEventStream.open(
                host: "127.0.0.1", port: emulator.adminPort, path: "/api/v1/events?token=\(token.hex)")
            #expect(stream.status == 200)
            #expect(stream.contentType == "text/event-stream")
            let everything = try await AdminEventStream.open(host: "127.0.0.1", port: emulator.adminPort)

            let provider = try await emulator.http2Client()
            let pushed = try await provider.push(token: token.hex, topic: Self.topic)
            let received = try await device.next()
            try await device.acknowledge(received.uniqueID)
            // The acknowledgement reaches the store on its own path: wait for it, so the events' order is fixed.
            _ = try await emulator.adminObject("/api/v1/notifications/wait?token=\(token.hex)&status=delivered&timeout=10s")
            let second = try await provider.push(token: token.hex, topic: Self.topic, json: #"{"n":2}"#)
            #expect(second.status == 200)
            // It is presented as the device is handed it, on its own path: wait for that too, so a
            // busy machine cannot put the next push's rejection before it.
            let presented = await eventually {
                let item = try? await emulator.adminObject("/api/v1/notifications/\(second.header("apns-unique-id") ?? "")")
                return item?["presentation"] is [String: Any]
            }
            #expect(presented, "the second push was never presented")
            #expect(try await provider.push(token: token.hex, headers: [("apns-priority", "7")]).status == 400)
            let other = String(repeating: "0a", count: 32)
            #expect(try await provider.push(token: other, headers: [("apns-expiration", "0")]).status == 200)

            // Each notification is presented as it is handed to the connected device.
            let events = try await stream.waitForEvents(6)
            #expect(events.map(\.kind) == ["accepted", "presented", "delivered", "accepted", "presented", "rejected"])
            #expect(events[0].data["uniqueId"] as? String == pushed.header("apns-unique-id"))
            #expect(events[1].data["presentation"] is [String: Any])
            #expect(events[2].data["status"] as? String == "delivered")
            #expect(events[5].data["reason"] as? String == "BadPriority")
            let all = try await everything.waitForEvents(8)
            #expect(all.suffix(2).map(\.kind) == ["accepted", "discarded"])
            #expect(all.last?.data["token"] as? String == other)
            try await stream.close()
            try await everything.close()
        }
    }

    @Test("healthz, readyz and an OpenAPI document whose every path and method is served")
    func health() async throws {
        try await withEmulator { emulator in
            #expect(try await emulator.adminObject("/healthz")["status"] as? String == "ok")
            #expect(try await emulator.adminObject("/readyz")["status"] as? String == "ready")
            let document = try await emulator.adminObject("/openapi.json")
            #expect((document["openapi"] as? String)?.hasPrefix("3.") == true)
            let paths = try #require(document["paths"] as? [String: [String: Any]])
            #expect(paths.count >= 16)
            let token = String(repeating: "ab", count: 32)
            for (path, operations) in paths {
                let concrete = path.replacingOccurrences(of: "{id}", with: "x").replacingOccurrences(of: "{token}", with: token)
                    .replacingOccurrences(of: "{asset}", with: "inbox.js")
                    .replacingOccurrences(of: "{bundleId}", with: "com.example.health")
                    .replacingOccurrences(of: "{deviceId}", with: "iphone-health")
                for method in operations.keys {
                    let upper = method.uppercased()
                    // Each documented operation exists: anything but 404 (unknown path) or 405 (unknown method).
                    // The event stream never ends, so only its head is checked.
                    if concrete == "/api/v1/events" {
                        let stream = try await AdminEventStream.open(host: "127.0.0.1", port: emulator.adminPort)
                        #expect(stream.status == 200)
                        try await stream.close()
                        continue
                    }
                    let body =
                        upper == "POST"
                        ? (concrete.hasSuffix("devices")
                            ? #"{"topic":"a.b"}"# : concrete.hasSuffix("faults") ? #"{"action":"reset"}"# : "{}") : nil
                    let response = try await emulator.admin(
                        concrete + (concrete.hasSuffix("wait") ? "?timeout=10ms" : ""), method: upper, body: body)
                    // A 404 may mean "no such notification", never "no such endpoint".
                    #expect(
                        response.status != 405 && !response.text.contains("no such endpoint"),
                        "\(upper) \(path) answered \(response.status)")
                }
            }
        }
    }
}

import APNsCore
import APNsTestSupport
import Foundation
import Testing

/// Broadcast push as the rest of the emulator sees it: a push-to-start that subscribes its
/// activity (`input-push-channel`), fault rules on a channel, the event stream.
@Suite("Broadcast push: push-to-start, faults and events")
struct BroadcastRulesTests {
    typealias Broadcast = BroadcastTests

    // Apple, "Starting and updating Live Activities with ActivityKit push notifications" and
    // "Setting up broadcast push notifications": on iOS 18 a push-to-start with
    // `input-push-channel` starts an activity subscribed to that channel.
    @Test("a push-to-start with input-push-channel subscribes its activity; one naming no channel starts nothing")
    func pushToStart() async throws {
        try await withEmulator { emulator in
            let client = try await emulator.http2Client()
            let id = try await Broadcast.channel(client)
            let (token, pushToStart) = try await LiveActivityTests.app(emulator)
            let started = try await LiveActivityTests.outcome(
                emulator,
                try await LiveActivityTests.send(
                    client, pushToStart, LiveActivityTests.start(#", "input-push-channel": "\#(id)""#)))
            let activity = try #require(started["id"] as? String)
            #expect(try await emulator.adminObject("/api/v1/activities/\(activity)")["channelId"] as? String == id)
            #expect(
                try await Broadcast.publish(client, id, LiveActivityTests.update(LiveActivityTests.now + 30, "on its way")).status
                    == 200)
            #expect(try await Broadcast.status(emulator, activity) == "on its way")
            #expect(try await emulator.adminObject("/api/v1/channels/\(id)")["subscribers"] as? Int == 1)

            let unknown = LiveActivityTests.start(#", "input-push-channel": "dHN0LXNyY2gtY2hubA==""#)
            let refused = try await LiveActivityTests.send(client, pushToStart, unknown)
            #expect(refused.status == 200, "APNs takes the push; the phone is what cannot start it")
            let entry = try await emulator.adminObject("/api/v1/notifications/\(try #require(refused.header("apns-unique-id")))")
            let outcome = try #require(entry["activity"] as? [String: Any])
            #expect(
                outcome["outcome"] as? String == "not started" && outcome["code"] as? String == "unknown-channel", "\(outcome)")
            #expect(try await LiveActivityTests.activities(emulator, token).count == 1)
        }
    }

    @Test("fault rules match a channel id: TooManyRequests for one channel's broadcasts, the other channel untouched")
    func faultOnChannel() async throws {
        try await withEmulator { emulator in
            let client = try await emulator.http2Client()
            let (faulted, other) = (try await Broadcast.channel(client), try await Broadcast.channel(client))
            let rule =
                #"{"match": {"interface": "broadcast", "channelId": "\#(faulted)"}, "action": {"type": "respond", "reason": "TooManyRequests"}, "times": 1}"#
            _ = try await emulator.adminObject("/api/v1/faults", method: "POST", body: rule, status: 201)
            let update = LiveActivityTests.update(LiveActivityTests.now, "x")
            #expect(try await Broadcast.publish(client, other, update).status == 200)
            let refused = try await Broadcast.publish(client, faulted, update)
            #expect(refused.status == 429 && refused.reason == "TooManyRequests" && refused.header("apns-request-id") != nil)
            #expect(try await Broadcast.publish(client, faulted, update).status == 200, "the rule applied once")
            let journal = try await emulator.journal("interface=broadcast&status=rejected")
            #expect(
                journal.contains {
                    $0["channelId"] as? String == faulted && $0["reason"] as? String == "TooManyRequests" && $0["fault"] != nil
                })
            let wrong = try await emulator.admin(
                "/api/v1/faults", method: "POST",
                body: #"{"match": {"interface": "binary", "channelId": "\#(other)"}, "action": {"type": "reset"}}"#)
            #expect(
                wrong.status == 400 && wrong.text.contains("channelId"), "a rule that could never match is refused: \(wrong.text)"
            )
        }
    }

    // "APNs may reorder messages on a channel" (Apple, "Sending broadcast push notification
    // requests to APNs"): the emulator keeps them in order unless a delay fault holds one back,
    // and an activity then ignores the one whose timestamp is older than what it shows.
    @Test("a delay fault lets a later broadcast overtake an earlier one; the subscriber keeps the newer content")
    func reorderedByFault() async throws {
        try await withEmulator { emulator in
            let client = try await emulator.http2Client()
            let id = try await Broadcast.channel(client)
            let subscriber = try await Broadcast.subscriber(emulator, channel: id)
            // 15 s: a CI run on a loaded two-core machine once took more than 5 s to take the second.
            let rule = #"{"match": {"channelId": "\#(id)"}, "action": {"type": "delay", "ms": 15000}, "times": 1}"#
            _ = try await emulator.adminObject("/api/v1/faults", method: "POST", body: rule, status: 201)
            let now = LiveActivityTests.now
            async let held = Broadcast.publish(client, id, LiveActivityTests.update(now + 1, "first"))
            // The second is sent only once the rule holds the first (a rule whose times ran out is gone);
            // the hold is long enough for the second to be taken first on a busy machine.
            let holding = await eventually { ((try? await emulator.admin("/api/v1/faults").json()) as? [Any])?.isEmpty == true }
            #expect(holding)
            let overtaking = try await Broadcast.publish(client, id, LiveActivityTests.update(now + 2, "second"))
            #expect(overtaking.status == 200)
            let first = try await held
            #expect(first.status == 200)
            #expect(try await Broadcast.status(emulator, subscriber.activity) == "second")
            let entry = try await emulator.adminObject("/api/v1/notifications/\(try #require(first.header("apns-unique-id")))")
            let outcomes = try #require(entry["outcomes"] as? [[String: Any]])
            #expect(
                outcomes.count == 1 && outcomes[0]["outcome"] as? String == "ignored",
                "the held broadcast came second, older than what the activity shows: \(outcomes)")
        }
    }

    @Test("the event stream carries each management request and broadcast as a broadcast event")
    func events() async throws {
        try await withEmulator { emulator in
            let stream = try await AdminEventStream.open(host: "127.0.0.1", port: emulator.adminPort)
            let client = try await emulator.http2Client()
            let id = try await Broadcast.channel(client)
            _ = try await Broadcast.subscriber(emulator, channel: id)
            #expect(
                try await Broadcast.publish(client, id, LiveActivityTests.update(LiveActivityTests.now + 5, "heard")).status
                    == 200)
            let events = try await stream.waitForEvents(2, kind: "broadcast")
            #expect(events.map { $0.data["operation"] as? String } == ["create", "publish"])
            #expect(events.last?.data["fanOut"] as? Int == 1 && events.last?.data["channelId"] as? String == id)
            try await stream.close()
        }
    }
}

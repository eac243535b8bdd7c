import APNsCore
import APNsDevice
import APNsWire
import Foundation
import NIOCore
import Synchronization
import Testing

@testable import APNsServer

/// What a connected device hears of a broadcast: nothing while the fan-out runs (the 200 waits
/// for the subscribers' changes to be durable, not for every activity's document to be written),
/// then each activity as its app has it when it is told, so that news told late never shows
/// the device an older content state than one it was already told.
@Suite("Broadcast fan-out: the devices' news after the answer")
struct BroadcastNewsTests {
    static let bundle = "com.example.news"
    static let install = AppInstall(deviceID: "device-news", topic: bundle)

    /// An app on the device with one running activity subscribed to `channel`.
    static func app(subscribedTo channel: String, now: Int64) throws -> AppModel {
        var app = AppModel()
        app.activityTypes = [
            "Delivery": try JSONDecoder().decode(
                ActivityType.self, from: Data(#"{"attributes": {"order": "int"}, "contentState": {"status": "string"}}"#.utf8))
        ]
        let start =
            #"{"aps": {"event": "start", "timestamp": \#(now / 1000), "attributes-type": "Delivery", "attributes": {"order": 1}, "content-state": {"status": "new"}, "alert": {"title": "Order 1", "body": "New"}, "input-push-channel": "\#(channel)"}}"#
        let report = app.receive(
            ActivityPush(payload: Array(start.utf8), priority: 10), at: .pushToStart, uniqueID: "start", now: now,
            limits: ActivityLimits()
        ) { String(repeating: "ab", count: 32) }
        #expect(report.outcome == .started, "\(report.reason ?? "")")
        #expect(app.subscribers(of: channel).count == 1)
        return app
    }

    static func broadcast(_ channel: String, status: String, timestamp: Int64) -> BroadcastPush {
        let json = #"{"aps": {"event": "update", "timestamp": \#(timestamp), "content-state": {"status": "\#(status)"}}}"#
        return BroadcastPush(requestID: "", channelID: channel, priority: .immediate, expiration: 0, payload: Array(json.utf8))
    }

    /// The content state's status in each activity document of each message batch the device heard.
    static func statuses(_ batches: [[DeviceServerMessage]]) -> [[String]] {
        batches.map { batch in
            batch.compactMap { message -> String? in
                guard case .activity(_, let document) = message,
                    let object = try? JSONSerialization.jsonObject(with: Data(document)) as? [String: Any],
                    let activity = object["activity"] as? [String: Any], let state = activity["contentState"] as? [String: Any]
                else { return nil }
                return state["status"] as? String
            }
        }
    }

    @Test("the fan-out tells no device; news told after a later broadcast shows the activity as it is now")
    func newsAfterTheAnswer() async throws {
        let fixture = try AdminRouterFixture()
        defer { try? fixture.close() }
        let loop = fixture.group.next()
        let channel = try await fixture.channels.create(Self.bundle, ChannelConfiguration(storagePolicy: 0), on: loop).get().get()
        let now = fixture.phone.clock()
        let app = try Self.app(subscribedTo: channel.id, now: now)
        fixture.phone.apps.withLock { $0.models[Self.install] = app }
        let heard = Mutex<[[DeviceServerMessage]]>([])
        fixture.phone.activities.hub.subscribe(
            device: Self.install.deviceID,
            DeviceSubscriber(
                eventLoop: loop, handOver: { _ in }, tell: { messages in heard.withLock { $0.append(messages) } },
                powerChanged: { _ in }))

        var first = LiveActivities.DeviceNews()
        let reached = fixture.phone.activities.fanOut(
            Self.broadcast(channel.id, status: "first", timestamp: now / 1000 + 1), channel: channel, uniqueID: "b1",
            news: &first, on: loop)
        #expect(reached.map(\.outcome.outcome) == [.applied])
        var second = LiveActivities.DeviceNews()
        _ = fixture.phone.activities.fanOut(
            Self.broadcast(channel.id, status: "second", timestamp: now / 1000 + 2), channel: channel, uniqueID: "b2",
            news: &second, on: loop)
        try await loop.submit {}.get()
        #expect(heard.withLock { $0 }.isEmpty, "nothing is told while the fan-out runs")

        fixture.phone.activities.tell(first)
        fixture.phone.activities.tell(second)
        try await loop.submit {}.get()
        #expect(
            Self.statuses(heard.withLock { $0 }) == [["second"], ["second"]],
            "the first broadcast's news, told after the second was applied, shows the activity as it is now")
    }
}

import APNsCore
import APNsDevice
import Foundation
import Testing

/// Broadcast channels as values: APNs' side (the book) and the phone's (subscribed activities).
/// Sources: Apple, "Sending channel management requests to APNs" (10,000 channels per bundle
/// and environment; ids never reused; the policy fixed), "Sending broadcast push notification
/// requests to APNs" (policy 0 takes expiration 0; policy 1 keeps the latest up to 8 hours),
/// "Setting up broadcast push notifications" (turning the capability off deletes the channels).
@Suite("Broadcast channels")
struct ChannelBookTests {
    static let bundle = "com.example.match"
    static let hour: Int64 = 3_600_000

    static func push(
        _ channel: String, expiration: Int64,
        payload: String = #"{"aps": {"event": "update", "timestamp": 10, "content-state": {"score": "1-0"}}}"#
    ) -> BroadcastPush {
        BroadcastPush(
            requestID: "r", channelID: channel, priority: .immediate, expiration: expiration, payload: Array(payload.utf8))
    }

    @Test("the limit, deletion, the capability switch")
    func management() throws {
        var book = ChannelBook()
        book.limit = 2
        _ = try book.create(Self.bundle, ChannelConfiguration(storagePolicy: 0), id: "AAAA", now: 0).get()
        _ = try book.create(Self.bundle, ChannelConfiguration(storagePolicy: 1), id: "BBBB", now: 0).get()
        #expect(
            book.create(Self.bundle, ChannelConfiguration(storagePolicy: 1), id: "CCCC", now: 0)
                == .failure(.cannotCreateChannelConfig))
        #expect(
            (try? book.create("com.example.other", ChannelConfiguration(storagePolicy: 1), id: "DDDD", now: 0).get()) != nil,
            "the limit is per bundle")
        _ = try book.delete("AAAA", of: Self.bundle, now: 5).get()
        #expect(book.channel("AAAA", of: Self.bundle) == .failure(.channelNotRegistered))
        #expect(
            book.create(Self.bundle, ChannelConfiguration(storagePolicy: 1), id: "AAAA", now: 6)
                == .failure(.internalServerError), "an id is never reused")
        #expect(book.channel("BBBB", of: "com.example.other") == .failure(.channelNotRegistered), "a channel is its bundle's")
        #expect(
            (try? book.create(Self.bundle, ChannelConfiguration(storagePolicy: 1), id: "EEEE", now: 6).get()) != nil,
            "a deleted channel frees its place")
        #expect(book.setEnabled(Self.bundle, false, now: 7).map(\.id).sorted() == ["BBBB", "EEEE"])
        #expect(book.channel("BBBB", of: Self.bundle) == .failure(.featureNotEnabled))
        #expect(book.live(Self.bundle).isEmpty)
        _ = book.setEnabled(Self.bundle, true, now: 8)
        #expect((try? book.create(Self.bundle, ChannelConfiguration(storagePolicy: 1), id: "FFFF", now: 9).get()) != nil)
        #expect(
            (try? book.create(Self.bundle, ChannelConfiguration(storagePolicy: 1), id: "GGGG", now: 9).get()) != nil,
            "the deleted channels free their places")
    }

    @Test("policy 0 takes expiration 0 only and keeps nothing; policy 1 keeps the latest until its expiration, 8 hours at most")
    func storage() throws {
        var book = ChannelBook()
        _ = try book.create(Self.bundle, ChannelConfiguration(storagePolicy: 0), id: "AAAA", now: 0).get()
        _ = try book.create(Self.bundle, ChannelConfiguration(storagePolicy: 1), id: "BBBB", now: 0).get()
        #expect(
            book.publish(Self.push("AAAA", expiration: 100), to: Self.bundle, uniqueID: "u0", now: 0)
                == .failure(.badExpirationDate))
        #expect(try book.publish(Self.push("AAAA", expiration: 0), to: Self.bundle, uniqueID: "u1", now: 0).get().message == nil)
        let kept = try book.publish(Self.push("BBBB", expiration: 86_400), to: Self.bundle, uniqueID: "u2", now: 0).get()
        #expect(kept.message?.expiresAt == 8 * Self.hour && kept.published == 1)
        #expect(kept.storedMessage(at: 8 * Self.hour - 1)?.uniqueID == "u2" && kept.storedMessage(at: 8 * Self.hour) == nil)
        _ = try book.delete("BBBB", of: Self.bundle, now: Self.hour).get()
        #expect(
            book.subscribable("BBBB", of: Self.bundle, now: 2 * Self.hour) != nil,
            "a deleted channel's stored message may still be delivered")
        #expect(book.subscribable("BBBB", of: Self.bundle, now: 9 * Self.hour) == nil)
        #expect(
            book.subscribable("AAAA", of: Self.bundle, now: 0) != nil && book.subscribable("ZZZZ", of: Self.bundle, now: 0) == nil
        )
    }

    @Test(
        "a broadcast reaches the running activities subscribed to its channel, each under the Live Activity rules; push-to-start checks the channel"
    )
    func phone() throws {
        var app = AppModel()
        app.activityTypes = [
            "Match": ActivityType(
                attributes: [], contentState: [ActivityField("score", try #require(ActivityFieldType(notation: "string")))])
        ]
        let request = try JSONDecoder().decode(
            ActivityRequest.self,
            from: Data(
                #"{"attributes-type": "Match", "attributes": {}, "content-state": {"score": "0-0"}, "pushType": {"channel": "AAAA"}}"#
                    .utf8))
        #expect(request.channelID == "AAAA")
        let json = Array(#"{"attributes": {}, "content-state": {"score": "0-0"}}"#.utf8)
        let first = try app.startActivity(request, json: json, now: 0, limits: ActivityLimits(), issueToken: { "" })
        #expect(throws: DeviceModelError.self) {
            try app.startActivity(
                request, json: json, now: 0, limits: ActivityLimits(), issueToken: { "" }, channelExists: { _ in false })
        }
        let push = ActivityPush(payload: Self.push("AAAA", expiration: 0).payload, priority: 10)
        let (_, outcomes) = app.receiveBroadcast(push, channelID: "AAAA", uniqueID: "u1", now: 1000, limits: ActivityLimits())
        #expect(outcomes.map(\.outcome) == [.applied] && outcomes.first?.activityID == first.activityID)
        let (_, again) = app.receiveBroadcast(push, channelID: "AAAA", uniqueID: "u2", now: 2000, limits: ActivityLimits())
        #expect(again.first?.outcome == .applied, "the same timestamp again is applied (only an older one is ignored)")
        #expect(
            app.receiveBroadcast(push, channelID: "BBBB", uniqueID: "u3", now: 3000, limits: ActivityLimits()).outcomes.isEmpty)
        let start =
            #"{"aps": {"event": "start", "timestamp": 1, "attributes-type": "Match", "attributes": {}, "content-state": {"score": "0-0"}, "alert": {"title": "t", "body": "b"}, "input-push-channel": "ZZZZ"}}"#
        let report = app.receive(
            ActivityPush(payload: Array(start.utf8), priority: 10), at: .pushToStart, uniqueID: "u4", now: 4000,
            limits: ActivityLimits(), issueToken: { "" }, channelExists: { $0 != "ZZZZ" })
        #expect(report.outcome == .notStarted("unknown-channel"))
    }
}

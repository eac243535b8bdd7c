import APNsCore
import APNsDeviceClient
import APNsServer
import APNsTestSupport
import Foundation
import Testing

/// A device a seed declares, with no device attached, is the emulator's own phone: one state
/// (its power) decides for every kind of push (issue 69, "One truth per device").
///
/// Sources: Apple, "Sending notification requests to APNs": APNs delivers to a device that is
/// online and stores the notification while it is offline ("If the device is offline, APNs stores
/// the notification and delivers it when the device comes online"); the Console's delivery log
/// names "Stored - Device Offline" and "Stored - Power Considerations". Priority 1 "does not
/// awaken the device" (apns-priority), so a locked device holds it until a priority-10 push.
@Suite("The seed's device is the emulator's own phone")
struct PhoneOwnDeviceTests {
    static let shop = "5d1c2f3e4a5b6c7d8e9f00112233445566778899aabbccddeeff001122334455"
    static let topic = "com.example.shop"
    static let seed = Checkout.root.appendingPathComponent("docs/seeds/typical-app.yaml").path
    static let start =
        #"{"aps": {"event": "start", "timestamp": \#(Int(Date().timeIntervalSince1970)), "attributes-type": "DeliveryAttributes", "attributes": {"orderNumber": "7"}, "content-state": {"status": "packing", "eta": 800000000}, "alert": {"title": "Order 7", "body": "Packing"}}}"#

    /// The journal's status and phone outcome, as `delivered · shown as banner`.
    func entry(_ emulator: RunningEmulator, _ uniqueID: String) async throws -> String {
        let entry = try await emulator.adminObject("/api/v1/notifications/\(uniqueID)")
        let outcome = (entry["phoneOutcome"] as? [String: Any])?["text"] as? String
        return "\(entry["status"] as? String ?? "?") · \(outcome ?? "?")"
    }

    func alert(_ provider: HTTP2TestClient, _ text: String, priority: Int = 10) async throws -> String {
        try await provider.accepted(
            token: Self.shop, topic: Self.topic, pushType: "alert", priority: priority, json: #"{"aps":{"alert":"\#(text)"}}"#)
    }

    @Test(
        "online with nothing attached: alerts and a Live Activity start are taken as accepted; offline, both wait and go when it is back"
    )
    func onlineAndOffline() async throws {
        let emulator = try await RunningEmulator.start(seed: try SeedDocument.read(Self.seed))
        let provider = try await emulator.http2Client()
        let shown = try await self.alert(provider, "shown at once")
        #expect(try await self.entry(emulator, shown) == "delivered · shown as banner")
        let devices = try #require(try await emulator.admin("/api/v1/devices").json() as? [[String: Any]])
        let shop = try #require(devices.first { $0["token"] as? String == Self.shop })
        #expect(shop["phone"] as? Bool == true && shop["connected"] as? Bool == false, "\(shop)")

        _ = try await emulator.adminObject(
            "/api/v1/devices/\(Self.shop)/power", method: "PUT", body: #"{"online": false}"#)
        let waiting = try await self.alert(provider, "while offline")
        #expect(try await self.entry(emulator, waiting) == "queued · waiting for the device")
        let app = try await emulator.adminObject("/api/v1/devices/\(Self.shop)/app")
        let pushToStart = try #require(app["pushToStartToken"] as? String)
        let started = try await provider.push(
            token: pushToStart,
            headers: [("apns-topic", Self.topic + ".push-type.liveactivity"), ("apns-push-type", "liveactivity")],
            json: Self.start)
        let startID = try #require(started.header("apns-unique-id"))
        #expect(started.status == 200)
        #expect(try await self.entry(emulator, startID).hasPrefix("queued"))
        #expect(try await LiveActivityTests.activities(emulator, Self.shop).isEmpty, "no activity starts on an offline phone")

        _ = try await emulator.adminObject("/api/v1/devices/\(Self.shop)/power", method: "PUT", body: #"{"online": true}"#)
        #expect(await eventually { (try? await self.entry(emulator, waiting)) == "delivered · shown as banner" })
        #expect(await eventually { (try? await LiveActivityTests.activities(emulator, Self.shop).count) == 1 })
        #expect(try await self.entry(emulator, startID).hasPrefix("delivered"))
        try await provider.close()
        try await emulator.stop()
    }

    @Test(
        "its power state holds as an attached device's: priority 1 waits on the locked phone and goes with the next priority-10 push"
    )
    func powerHolds() async throws {
        let emulator = try await RunningEmulator.start(seed: try SeedDocument.read(Self.seed))
        let provider = try await emulator.http2Client()
        // The seed's iPhone is locked: priority 1 never wakes it.
        let held = try await self.alert(provider, "when awake", priority: 1)
        #expect(try await self.entry(emulator, held) == "queued · waiting for the device")
        let events = try await DeliveryLogTests.events(emulator, held)
        #expect(events == ["Received by APNs", "Stored - Power Considerations"], "\(events)")
        let urgent = try await self.alert(provider, "now")
        #expect(try await self.entry(emulator, urgent).hasPrefix("delivered"))
        #expect(await eventually { (try? await self.entry(emulator, held))?.hasPrefix("delivered") == true })
        #expect(try await emulator.queued(Self.shop).isEmpty)
        try await provider.close()
        try await emulator.stop()
    }

    @Test("a device attached to its token takes its pushes; when it leaves, the phone takes them again")
    func attachedDevice() async throws {
        let emulator = try await RunningEmulator.start(seed: try SeedDocument.read(Self.seed))
        let provider = try await emulator.http2Client()
        let device = try await emulator.device("iphone-15")
        let token = try #require(DeviceToken(hex: Self.shop))
        _ = try await device.resume([token])
        let handed = try await self.alert(provider, "to the attached device")
        let received = try await device.next()
        #expect(received.uniqueID == handed)
        let devices = try #require(try await emulator.admin("/api/v1/devices").json() as? [[String: Any]])
        #expect(devices.first { $0["token"] as? String == Self.shop }?["phone"] as? Bool == false)
        // Left unacknowledged: the phone takes it once the device has gone.
        try await device.close()
        let left = await eventually { (try? await self.entry(emulator, handed))?.hasPrefix("delivered") == true }
        let now = try await self.entry(emulator, handed)
        #expect(left, "\(now)")
        let after = try await self.alert(provider, "after it left")
        #expect(try await self.entry(emulator, after) == "delivered · shown as banner")
        try await provider.close()
        try await emulator.stop()
    }

    /// A channel for the seed's app, and an activity on the seed's iPhone subscribed to it.
    func subscribed(
        _ emulator: RunningEmulator, _ provider: HTTP2TestClient, policy: Int
    ) async throws -> (
        channel: String, activity: String
    ) {
        let created = try await provider.send(
            path: "/1/apps/\(Self.topic)/channels",
            body: Array(#"{"message-storage-policy": \#(policy), "push-type": "LiveActivity"}"#.utf8))
        let channel = try #require(created.header("apns-channel-id"), "\(created.status) \(created.reason ?? "")")
        let request =
            #"{"attributes-type": "DeliveryAttributes", "attributes": {"orderNumber": "7"}, "content-state": {"status": "new", "eta": 800000000}, "pushType": {"channel": "\#(channel)"}}"#
        let started = try await emulator.adminObject(
            "/api/v1/devices/\(Self.shop)/activities", method: "POST", body: request, status: 201)
        return (channel, try #require(started["id"] as? String))
    }

    /// A broadcast update to `channel`, kept an hour by a policy-1 channel (`expires`), answered 200.
    func broadcast(
        _ provider: HTTP2TestClient, _ channel: String, _ status: String, at timestamp: Int, expires: Bool = true
    ) async throws -> String {
        let expiration = expires ? timestamp + 3600 : 0
        let sent = try await provider.send(
            path: "/4/broadcasts/apps/\(Self.topic)",
            headers: [
                ("apns-channel-id", channel), ("apns-push-type", "LiveActivity"), ("apns-priority", "10"),
                ("apns-expiration", "\(expiration)"),
            ],
            body: Array(
                #"{"aps": {"event": "update", "timestamp": \#(timestamp), "content-state": {"status": "\#(status)", "eta": 800000000}}}"#
                    .utf8))
        #expect(sent.status == 200, "\(sent.status) \(sent.reason ?? "")")
        return try #require(sent.header("apns-unique-id"))
    }

    // Apple, "Sending broadcast push notification requests to APNs" (message-storage-policy):
    // 0 "No messages are stored", 1 "Only the most recent message is stored"; a stored message is
    // delivered to a device that comes online. A channel's messages follow the device's one state.
    @Test(
        "an offline phone's activities take no broadcast: policy 1's latest message reaches them when it is back, policy 0's never"
    )
    func broadcastsWhileOffline() async throws {
        let emulator = try await RunningEmulator.start(seed: try SeedDocument.read(Self.seed))
        let provider = try await emulator.http2Client()
        let (kept, keptActivity) = try await self.subscribed(emulator, provider, policy: 1)
        let (unkept, unkeptActivity) = try await self.subscribed(emulator, provider, policy: 0)
        let now = Int(Date().timeIntervalSince1970)
        _ = try await self.broadcast(provider, kept, "packing", at: now)
        #expect(try await BroadcastTests.status(emulator, keptActivity) == "packing", "online: applied as it is taken")

        _ = try await emulator.adminObject("/api/v1/devices/\(Self.shop)/power", method: "PUT", body: #"{"online": false}"#)
        let first = try await self.broadcast(provider, kept, "on the way", at: now + 1)
        let latest = try await self.broadcast(provider, kept, "at the door", at: now + 2)
        let lost = try await self.broadcast(provider, unkept, "lost", at: now + 3, expires: false)
        let outcome = { (id: String) in
            ((try await emulator.adminObject("/api/v1/notifications/\(id)"))["outcomes"] as? [[String: Any]])?.first
        }
        let waiting = try #require(try await outcome(first))
        #expect(waiting["outcome"] as? String == "waiting" && waiting["code"] as? String == "device-offline", "\(waiting)")
        let ignored = try #require(try await outcome(lost))
        #expect(ignored["outcome"] as? String == "ignored" && ignored["code"] as? String == "device-offline", "\(ignored)")
        #expect(try await BroadcastTests.status(emulator, keptActivity) == "packing")

        _ = try await emulator.adminObject("/api/v1/devices/\(Self.shop)/power", method: "PUT", body: #"{"online": true}"#)
        #expect(await eventually { (try? await BroadcastTests.status(emulator, keptActivity)) == "at the door" })
        #expect(try await BroadcastTests.status(emulator, unkeptActivity) == "new", "policy 0 stores nothing")
        // Only the latest is stored; and one already taken is not applied again at the next return.
        _ = try await emulator.adminObject("/api/v1/devices/\(Self.shop)/power", method: "PUT", body: #"{"online": false}"#)
        _ = try await emulator.adminObject("/api/v1/devices/\(Self.shop)/power", method: "PUT", body: #"{"online": true}"#)
        let history = try #require(
            try await emulator.adminObject("/api/v1/activities/\(keptActivity)")["history"] as? [[String: Any]])
        let ids = history.compactMap { $0["uniqueId"] as? String }
        #expect(!ids.contains(first) && ids.filter { $0 == latest }.count == 1, "\(ids)")
        try await provider.close()
        try await emulator.stop()
    }
}

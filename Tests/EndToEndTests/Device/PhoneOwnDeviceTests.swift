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
}

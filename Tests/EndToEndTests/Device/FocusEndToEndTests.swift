import APNsCore
import APNsDevice
import APNsDeviceClient
import APNsTestSupport
import Foundation
import Testing

/// A device's Focus over real sockets: the admin API turns it on by device id, a provider pushes
/// over HTTP/2 with TLS, the device and the journal say what the phone did. Sources: Apple
/// Support, "Use a Focus on your iPhone" (allowed apps; Time Sensitive notifications break
/// through when the Focus lets them); "UNNotificationInterruptionLevel" (critical alerts do).
@Suite("Focus, end to end")
struct FocusEndToEndTests {
    static let (chat, shop) = ("com.example.chat", "com.example.shop")

    /// Pushes `json` to `token` of `topic`; the presentation the device hears.
    func push(
        _ json: String, to token: DeviceToken, topic: String, device: DeviceClient, provider: HTTP2TestClient
    )
        async throws -> Presentation
    {
        let uniqueID = try await provider.accepted(token: token.hex, topic: topic, json: json)
        let notification = try await device.next()
        #expect(notification.uniqueID == uniqueID)
        try await device.acknowledge(uniqueID)
        return try await device.presentation(of: uniqueID)
    }

    func authorize(_ emulator: RunningEmulator, _ token: DeviceToken, entitlements: String = "[]") async throws {
        _ = try await emulator.adminObject(
            "/api/v1/devices/\(token.hex)/app", method: "PUT",
            body: #"{"entitlements": \#(entitlements), "authorization": {"status": "authorized", "alert": true, "sound": true}}"#)
    }

    @Test(
        "a Focus silences the apps it does not allow (quietly, held by focus); time-sensitive breaks through; off, all interrupt")
    func focus() async throws {
        try await withEmulator { emulator in
            let deviceID = "iphone-\(UUID().uuidString.prefix(6))"
            let device = try await emulator.device(deviceID)
            let (chat, shop) = (try await device.register(topic: Self.chat), try await device.register(topic: Self.shop))
            try await self.authorize(emulator, chat)
            try await self.authorize(emulator, shop, entitlements: #"["time-sensitive"]"#)
            let provider = try await emulator.http2Client()

            let on = try await emulator.adminObject(
                "/api/v1/devices/\(deviceID)/focus", method: "PUT",
                body: #"{"active": "Work", "allowedApps": ["\#(Self.chat)"], "timeSensitive": true}"#)
            #expect(on["active"] as? String == "Work" && on["apps"] as? Int == 2)
            #expect(on["allowedApps"] as? [String] == [Self.chat] && on["timeSensitive"] as? Bool == true)

            let sale = try await self.push(
                #"{"aps":{"alert":"Sale!","sound":"default"}}"#, to: shop, topic: Self.shop, device: device, provider: provider)
            #expect(sale.shown && sale.deliveredQuietly && sale.heldBy == "focus" && sale.sound == nil)
            let message = try await self.push(
                #"{"aps":{"alert":"Lunch?","sound":"default"}}"#, to: chat, topic: Self.chat, device: device, provider: provider)
            #expect(!message.deliveredQuietly && message.sound == "default")
            let urgent = try await self.push(
                #"{"aps":{"alert":"Order at the door","interruption-level":"time-sensitive"}}"#, to: shop, topic: Self.shop,
                device: device, provider: provider)
            #expect(urgent.brokeThrough && urgent.interruptionLevel == .timeSensitive && !urgent.deliveredQuietly)

            let read = try await emulator.adminObject("/api/v1/devices/\(deviceID)/focus")
            #expect(read["active"] as? String == "Work")
            let off = try await emulator.adminObject(
                "/api/v1/devices/\(deviceID)/focus", method: "PUT", body: #"{"active": null}"#)
            #expect(off["active"] is NSNull && off["timeSensitive"] is NSNull)
            let after = try await self.push(
                #"{"aps":{"alert":"Sale over","sound":"default"}}"#, to: shop, topic: Self.shop, device: device,
                provider: provider)
            #expect(!after.deliveredQuietly && after.heldBy == nil && after.sound == "default")
        }
    }

    @Test("an app the device installs during a Focus starts in it, and the Focus outlives a restart")
    func laterAppAndRestart() async throws {
        let directory = try TemporaryDirectory()
        let deviceID = "iphone-\(UUID().uuidString.prefix(6))"
        let emulator = try await RunningEmulator.start(directory: directory)
        let device = try await emulator.device(deviceID)
        _ = try await device.register(topic: Self.chat)
        _ = try await emulator.adminObject(
            "/api/v1/devices/\(deviceID)/focus", method: "PUT", body: #"{"active": "Sleep", "timeSensitive": false}"#)
        let shop = try await device.register(topic: Self.shop)
        try await self.authorize(emulator, shop)
        let app = try await emulator.adminObject("/api/v1/devices/\(shop.hex)/app")
        #expect((app["focus"] as? [String: Any])?["name"] as? String == "Sleep")
        try await device.close()
        try await emulator.stop()

        let restarted = try await RunningEmulator.start(directory: directory)
        let focus = try await restarted.adminObject("/api/v1/devices/\(deviceID)/focus")
        #expect(focus["active"] as? String == "Sleep" && focus["timeSensitive"] as? Bool == false)
        try await restarted.stop()
    }

    @Test("a document that is not a Focus is 400 naming the field, and changes nothing")
    func refused() async throws {
        try await withEmulator { emulator in
            let path = "/api/v1/devices/iphone-x/focus"
            for (body, words) in [
                (#"{"allowedApps": []}"#, "active is the Focus's name"), (#"{"active": "Work", "mode": 1}"#, "has no field mode"),
                (#"{"active": ""}"#, "1 to 64 bytes"),
                (#"{"active": "Work", "timeSensitive": null}"#, "timeSensitive"),
            ] {
                let refused = try await emulator.admin(path, method: "PUT", body: body)
                #expect(refused.status == 400)
                #expect(String(decoding: refused.body, as: UTF8.self).contains(words), "\(body)")
            }
            let focus = try await emulator.adminObject(path)
            #expect(focus["active"] is NSNull && focus["apps"] as? Int == 0)
        }
    }

    /// Apple, `UNNotificationContent.filterCriteria` ("the criteria the system evaluates to
    /// determine if it displays the notification in the current Focus") and AppIntents'
    /// `FocusFilterAppContext.notificationFilterPredicate`.
    @Test("an app's Focus filter lets through only the filter-criteria it names; the rest is held quietly by focusFilter")
    func focusFilter() async throws {
        try await withEmulator { emulator in
            let deviceID = "iphone-\(UUID().uuidString.prefix(6))"
            let device = try await emulator.device(deviceID)
            let token = try await device.register(topic: Self.chat)
            try await self.authorize(emulator, token)
            let focus = try await emulator.adminObject(
                "/api/v1/devices/\(deviceID)/focus", method: "PUT",
                body: #"{"active": "Work", "allowedApps": ["\#(Self.chat)"], "filters": {"\#(Self.chat)": ["work-account"]}}"#)
            #expect((focus["filters"] as? [String: [String]])?[Self.chat] == ["work-account"])
            let provider = try await emulator.http2Client()
            let work = try await self.push(
                #"{"aps":{"alert":"Standup","filter-criteria":"work-account"}}"#, to: token, topic: Self.chat, device: device,
                provider: provider)
            #expect(!work.deliveredQuietly && work.style == .banner)
            let personal = try await self.push(
                #"{"aps":{"alert":"Dinner?","filter-criteria":"personal-account"}}"#, to: token, topic: Self.chat,
                device: device, provider: provider)
            #expect(personal.deliveredQuietly && personal.heldBy == "focusFilter")
            let unmarked = try await self.push(
                #"{"aps":{"alert":"Hello"}}"#, to: token, topic: Self.chat, device: device, provider: provider)
            #expect(unmarked.deliveredQuietly && unmarked.heldBy == "focusFilter")
            let bad = try await emulator.admin(
                "/api/v1/devices/\(deviceID)/focus", method: "PUT", body: #"{"active": "Work", "filters": {"": ["x"]}}"#)
            #expect(bad.status == 400 && bad.text.contains("filters"))
        }
    }
}

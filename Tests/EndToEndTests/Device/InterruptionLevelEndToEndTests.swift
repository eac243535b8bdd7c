import APNsCore
import APNsDevice
import APNsDeviceClient
import APNsTestSupport
import Foundation
import Testing

/// Interruption levels, entitlements and provisional authorization over real sockets: a
/// version-3 device plays the app, a provider pushes over HTTP/2 with TLS, the admin API sets
/// what the user and the app's signature allow and reads the phone's decision. Sources: Apple,
/// "UNNotificationInterruptionLevel", "Asking permission to use notifications" (provisional),
/// "Generating a remote notification" (`interruption-level`, the critical `sound` dictionary).
@Suite("Interruption levels, end to end")
struct InterruptionLevelEndToEndTests {
    static let topic = "com.example.levels"

    func phone(_ emulator: RunningEmulator) async throws -> (DeviceClient, DeviceToken, HTTP2TestClient) {
        let device = try await emulator.device("iphone-\(UUID().uuidString.prefix(6))")
        let token = try await device.register(topic: Self.topic)
        return (device, token, try await emulator.http2Client())
    }

    /// Pushes `json`; the presentation as the device hears it and as the journal records it.
    func push(
        _ json: String, to token: DeviceToken, device: DeviceClient, provider: HTTP2TestClient, emulator: RunningEmulator
    ) async throws -> (Presentation, [String: Any]) {
        let uniqueID = try await provider.accepted(token: token.hex, topic: Self.topic, json: json)
        let notification = try await device.next()
        #expect(notification.uniqueID == uniqueID)
        try await device.acknowledge(uniqueID)
        let item = try await emulator.adminObject("/api/v1/notifications/\(uniqueID)")
        return (try await device.presentation(of: uniqueID), try #require(item["presentation"] as? [String: Any]))
    }

    @Test("provisional: granted without a prompt, delivered quietly to Notification Center, held by provisional")
    func provisional() async throws {
        try await withEmulator { emulator in
            let (device, token, provider) = try await self.phone(emulator)
            let answer = try await device.requestAuthorization(
                topic: Self.topic, options: [.alert, .sound, .badge, .provisional], userAllows: false)
            #expect(answer.authorization.status == .provisional && answer.granted && !answer.prompted)
            let (heard, recorded) = try await self.push(
                #"{"aps":{"alert":"Try us","sound":"default","badge":1}}"#, to: token, device: device, provider: provider,
                emulator: emulator)
            #expect(heard.shown && heard.deliveredQuietly && heard.heldBy == "provisional" && heard.sound == nil)
            #expect(recorded["deliveredQuietly"] as? Bool == true && recorded["heldBy"] as? String == "provisional")
            #expect(recorded["interruptionLevel"] as? String == "active" && recorded["style"] as? String == "none")
            let delivered = try await emulator.adminObject("/api/v1/devices/\(token.hex)/delivered")
            #expect(delivered["total"] as? Int == 1)
            let app = try await emulator.adminObject("/api/v1/devices/\(token.hex)/app")
            #expect((app["authorization"] as? [String: Any])?["status"] as? String == "provisional")
        }
    }

    @Test("entitlements and the user's switches decide time-sensitive and critical; passive is quiet")
    func levels() async throws {
        try await withEmulator { emulator in
            let (device, token, provider) = try await self.phone(emulator)
            let app = try await emulator.adminObject(
                "/api/v1/devices/\(token.hex)/app", method: "PUT",
                body: #"""
                    {"entitlements": ["time-sensitive"],
                     "authorization": {"status": "authorized", "alert": true, "sound": true, "badge": true, "criticalAlert": true}}
                    """#)
            #expect(app["entitlements"] as? [String] == ["time-sensitive"])
            let authorization = try #require(app["authorization"] as? [String: Any])
            #expect(authorization["timeSensitive"] as? Bool == true && authorization["criticalAlert"] as? Bool == true)
            #expect(authorization["scheduledDelivery"] as? Bool == false)

            let (urgent, _) = try await self.push(
                #"{"aps":{"alert":"Your ride is here","interruption-level":"time-sensitive"}}"#, to: token, device: device,
                provider: provider, emulator: emulator)
            #expect(urgent.interruptionLevel == .timeSensitive && urgent.style == .banner)

            let (quiet, quietRecord) = try await self.push(
                #"{"aps":{"alert":"Weekly digest","sound":"default","interruption-level":"passive"}}"#, to: token,
                device: device, provider: provider, emulator: emulator)
            #expect(quiet.deliveredQuietly && quiet.sound == nil && quietRecord["interruptionLevel"] as? String == "passive")

            // The user allowed critical alerts, but the app is not signed with Apple's entitlement.
            let critical =
                #"{"aps":{"alert":"Leak","interruption-level":"critical","sound":{"critical":1,"name":"default","volume":1}}}"#
            let (lowered, loweredRecord) = try await self.push(
                critical, to: token, device: device, provider: provider, emulator: emulator)
            #expect(lowered.interruptionLevel == .active)
            #expect((loweredRecord["notes"] as? [String])?.contains { $0.contains("critical-alerts") } == true)

            _ = try await emulator.adminObject(
                "/api/v1/devices/\(token.hex)/app", method: "PUT",
                body: #"{"entitlements": ["time-sensitive", "critical-alerts"]}"#)
            let (alarm, _) = try await self.push(critical, to: token, device: device, provider: provider, emulator: emulator)
            #expect(alarm.interruptionLevel == .critical && alarm.sound == "default")
        }
    }

    @Test("an entitlement iOS does not know is 400 naming it, and changes nothing")
    func unknownEntitlement() async throws {
        try await withEmulator { emulator in
            let (_, token, _) = try await self.phone(emulator)
            let refused = try await emulator.admin(
                "/api/v1/devices/\(token.hex)/app", method: "PUT", body: #"{"entitlements": ["push-everything"]}"#)
            #expect(refused.status == 400)
            #expect(String(decoding: refused.body, as: UTF8.self).contains("push-everything is not one of time-sensitive"))
            let app = try await emulator.adminObject("/api/v1/devices/\(token.hex)/app")
            #expect(app["entitlements"] as? [String] == [])
        }
    }

    /// Apple, `UNAuthorizationStatus.ephemeral` (App Clips only) and "Enabling notifications in
    /// App Clips": notifications for up to eight hours after each launch.
    @Test(
        "ephemeral: an App Clip's alerts show for eight hours after its last launch, then it reads notDetermined and shows nothing"
    )
    func ephemeral() async throws {
        try await withEmulator { emulator in
            let (device, token, provider) = try await self.phone(emulator)
            let app = try await emulator.adminObject(
                "/api/v1/devices/\(token.hex)/app", method: "PUT",
                body: #"{"authorization": {"status": "ephemeral", "alert": true, "sound": true}}"#)
            #expect((app["authorization"] as? [String: Any])?["status"] as? String == "ephemeral")
            let (shown, _) = try await self.push(
                #"{"aps":{"alert":"Your order is ready"}}"#, to: token, device: device, provider: provider, emulator: emulator)
            #expect(shown.shown && shown.style == .banner)
            _ = try await emulator.adminObject("/api/v1/clock", method: "POST", body: #"{"advance": "7h"}"#)
            // A launch renews the eight hours.
            _ = try await emulator.adminObject(
                "/api/v1/devices/\(token.hex)/app", method: "PUT", body: #"{"appState": "foreground"}"#)
            _ = try await emulator.adminObject(
                "/api/v1/devices/\(token.hex)/app", method: "PUT", body: #"{"appState": "background"}"#)
            _ = try await emulator.adminObject("/api/v1/clock", method: "POST", body: #"{"advance": "7h"}"#)
            let (renewed, _) = try await self.push(
                #"{"aps":{"alert":"Still here"}}"#, to: token, device: device, provider: provider, emulator: emulator)
            #expect(renewed.shown, "\(renewed.notes)")
            _ = try await emulator.adminObject("/api/v1/clock", method: "POST", body: #"{"advance": "1h"}"#)
            let read = try await emulator.adminObject("/api/v1/devices/\(token.hex)/app")
            #expect((read["authorization"] as? [String: Any])?["status"] as? String == "notDetermined")
            let (ended, _) = try await self.push(
                #"{"aps":{"alert":"Too late"}}"#, to: token, device: device, provider: provider, emulator: emulator)
            #expect(!ended.shown && ended.notes.contains { $0.contains("ephemeral authorization ended") }, "\(ended)")
        }
    }
}

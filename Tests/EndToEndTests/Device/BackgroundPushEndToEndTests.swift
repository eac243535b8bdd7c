import APNsCore
import APNsDevice
import APNsDeviceClient
import APNsTestSupport
import Foundation
import Testing

/// Background pushes over real sockets: a provider sends `content-available` pushes at priority 5
/// over HTTP/2 with TLS to a connected device; the device and the journal say whether each woke
/// the app, and why not. Sources: Apple, "Pushing background updates to your App" (throttled;
/// no more than two or three an hour), `application(_:didReceiveRemoteNotification:
/// fetchCompletionHandler:)` (not launched after the user force-quit it).
@Suite("Background pushes, end to end")
struct BackgroundPushEndToEndTests {
    static let topic = "com.example.sync"

    func push(_ token: DeviceToken, device: DeviceClient, provider: HTTP2TestClient) async throws -> (Presentation, String) {
        let uniqueID = try await provider.accepted(
            token: token.hex, topic: Self.topic, pushType: "background", priority: 5, json: #"{"aps":{"content-available":1}}"#)
        let notification = try await device.next()
        #expect(notification.uniqueID == uniqueID)
        try await device.acknowledge(uniqueID)
        return (try await device.presentation(of: uniqueID), uniqueID)
    }

    @Test("the phone's budget throttles the fourth in an hour; force-quit holds them until the app is opened")
    func throttledAndForceQuit() async throws {
        try await withEmulator { emulator in
            let device = try await emulator.device("iphone-\(UUID().uuidString.prefix(6))")
            let token = try await device.register(topic: Self.topic)
            let provider = try await emulator.http2Client()
            let app = try await emulator.adminObject(
                "/api/v1/devices/\(token.hex)/app", method: "PUT", body: #"{"appState": "background"}"#)
            #expect(app["backgroundPushBudget"] as? Int == 3 && app["backgroundAppRefresh"] as? Bool == true)
            for _ in 0..<3 { #expect(try await self.push(token, device: device, provider: provider).0.appNotified) }
            let (throttled, id) = try await self.push(token, device: device, provider: provider)
            #expect(!throttled.appNotified && throttled.notDelivered?.hasPrefix("throttled") == true)
            let item = try await emulator.adminObject("/api/v1/notifications/\(id)")
            #expect(
                (item["phoneOutcome"] as? [String: Any])?["text"] as? String ?? ""
                    == "silent: not delivered (\(throttled.notDelivered ?? ""))")

            _ = try await emulator.adminObject(
                "/api/v1/devices/\(token.hex)/app", method: "PUT", body: #"{"forceQuit": true, "backgroundPushBudget": 100}"#)
            let (quit, _) = try await self.push(token, device: device, provider: provider)
            #expect(quit.notDelivered?.contains("force-quit") == true)
            // The user opens the app: background pushes wake it again.
            _ = try await device.setAppState(topic: Self.topic, .foreground)
            _ = try await device.setAppState(topic: Self.topic, .background)
            #expect(try await self.push(token, device: device, provider: provider).0.appNotified)
        }
    }
}

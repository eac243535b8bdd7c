import APNsCore
import APNsDeviceClient
import APNsTestSupport
import APNsWire
import Foundation
import Testing

/// Live Activities with the app's side played by a device over protocol version 3: tokens and
/// changes reach the device as ActivityKit's async sequences would tell the app.
@Suite("Live Activities on a version-3 device")
struct LiveActivityDeviceTests {
    static let topic = LiveActivityTests.bundle

    static func token(_ event: DeviceEvent, activity: Bool) -> (String?, DeviceToken)? {
        guard case .activityToken(topic, let id, let token) = event, (id != nil) == activity else { return nil }
        return (id, token)
    }

    // Apple, ActivityKit: Activity.pushToStartTokenUpdates gives the app its push-to-start token,
    // pushTokenUpdates each activity's update token.
    @Test("the device hears its push-to-start token, the update token of a pushed start, and each change with its reason")
    func tokensAndChanges() async throws {
        try await withEmulator { emulator in
            let device = try await emulator.device()
            #expect(device.version >= 3)
            let appToken = try await device.register(topic: Self.topic)
            let app = try await device.declareActivityTypes(topic: Self.topic, document: Array(LiveActivityTests.types.utf8))
            let pushToStart = try #require(app.pushToStartToken)
            let announced = try await device.nextEvent { Self.token($0, activity: false) != nil }
            #expect(Self.token(announced, activity: false)?.1.hex == pushToStart)
            #expect(
                try await emulator.adminObject("/api/v1/devices/\(appToken.hex)/app")["pushToStartToken"] as? String
                    == pushToStart)

            let provider = try await emulator.http2Client()
            #expect(try await LiveActivityTests.send(provider, pushToStart, LiveActivityTests.start()).status == 200)
            let issued = try #require(
                Self.token(try await device.nextEvent { Self.token($0, activity: true) != nil }, activity: true))
            let started = try await device.nextEvent {
                if case .activity(_, "started", _, _) = $0 { return true } else { return false }
            }
            guard case .activity(_, _, _, let activity) = started else { return }
            #expect(activity.id == issued.0 && activity.updateToken == issued.1.hex && activity.activityState == "active")

            let now = LiveActivityTests.now
            #expect(
                try await LiveActivityTests.send(provider, issued.1.hex, LiveActivityTests.update(now + 10, "on the way")).status
                    == 200)
            #expect(
                try await LiveActivityTests.send(provider, issued.1.hex, LiveActivityTests.update(now + 5, "packing")).status
                    == 200)
            let updated = try await device.nextEvent {
                if case .activity(_, "updated", _, _) = $0 { return true } else { return false }
            }
            if case .activity(_, _, _, let activity) = updated {
                #expect(activity.contentState == .object(["status": .string("on the way")]))
            }
            let ignored = try await device.nextEvent {
                if case .activity(_, "ignored", _, _) = $0 { return true } else { return false }
            }
            if case .activity(_, _, let reason, _) = ignored { #expect(reason?.contains("older than the last applied") == true) }
            #expect(try await device.activities(topic: Self.topic).map(\.id) == [activity.id])
            try await device.close()
        }
    }

    @Test(
        "the app starts and ends an activity itself; a type it never declared is refused; version 2 sessions do not know the messages"
    )
    func inApp() async throws {
        try await withEmulator { emulator in
            let device = try await emulator.device()
            _ = try await device.register(topic: Self.topic)
            _ = try await device.declareActivityTypes(topic: Self.topic, document: Array(LiveActivityTests.types.utf8))
            let request =
                #"{"attributes-type": "Delivery", "attributes": {"order": 2}, "content-state": {"status": "new"}, "pushType": "token"}"#
            let started = try await device.startActivity(topic: Self.topic, document: Array(request.utf8))
            #expect(started.activityState == "active" && started.updateToken != nil)
            let ended = try await device.endActivity(
                topic: Self.topic, id: started.id, document: Array(#"{"dismissalPolicy": "immediate"}"#.utf8))
            #expect(ended.activityState == "dismissed")
            await #expect(throws: DeviceClientError.self) {
                _ = try await device.startActivity(
                    topic: Self.topic, document: Array(request.replacingOccurrences(of: "Delivery", with: "Pizza").utf8))
            }
            try await device.close()

            let old = try await DeviceClient.connect(
                host: "127.0.0.1", port: emulator.devicePort, caPath: emulator.caPath, deviceID: "old-phone", version: 2)
            await #expect(throws: DeviceClientError.self) { _ = try await old.activities(topic: Self.topic) }
        }
    }
}

import APNsCore
import APNsDeviceClient
import APNsTestSupport
import Foundation
import Testing

/// A device's power and connectivity: online, Low Power Mode, locked.
///
/// Sources: Apple's "Sending notification requests to APNs" (apns-priority: 10 sends at once;
/// 5 sends it based on power considerations on the user's device; 1 prioritises the device's
/// power over all other concerns and does not awaken the device), and "Viewing the status of push
/// notifications using Metrics and APNs" (the device's power state is one of the factors of
/// delivery; the Console's "Stored - Power Considerations"). Priority 5 notifications "may be
/// grouped and delivered in bursts" (the priority header's description): the emulator's bursts
/// are in ``DevicePower``'s documentation.
@Suite("Device power states")
struct DevicePowerTests {
    static let topic = "com.example.power"

    func push(_ provider: HTTP2TestClient, _ token: DeviceToken, priority: Int, n: Int) async throws -> String {
        try await provider.accepted(
            token: token.hex, topic: Self.topic, pushType: "alert", priority: priority, json: #"{"aps":{"alert":"\#(n)"}}"#)
    }

    func text(_ notification: APNsCore.Notification) -> String {
        String(decoding: notification.payload, as: UTF8.self)
    }

    @Test(
        "Low Power Mode (set by the device): priority 5 waits, stored for power considerations; a priority-10 push goes at once and the held one follows in its burst"
    )
    func lowPowerMode() async throws {
        try await withEmulator { emulator in
            let device = try await emulator.device("phone")
            let token = try await device.register(topic: Self.topic)
            let state = try await device.setPower(lowPowerMode: true)
            #expect(state.lowPowerMode && state.online && !state.locked && state.deviceId == "phone")

            let provider = try await emulator.http2Client()
            let held = try await self.push(provider, token, priority: 5, n: 1)
            #expect(
                await eventually {
                    (try? await DeliveryLogTests.events(emulator, held)) == ["Received by APNs", "Stored - Power Considerations"]
                })
            let urgent = try await self.push(provider, token, priority: 10, n: 2)
            let first = try await device.next()
            let second = try await device.next()
            #expect([first.uniqueID, second.uniqueID] == [urgent, held])
            for notification in [first, second] { try await device.acknowledge(notification.uniqueID) }
            #expect(
                await eventually {
                    (try? await DeliveryLogTests.events(emulator, held)) == [
                        "Received by APNs", "Stored - Power Considerations", "Delivered to Device (From Storage)",
                        "Phone Decision",
                    ]
                })
            #expect(try await DeliveryLogTests.counter(emulator, "Stored - Power Considerations", priority: 5) == 1)

            // Leaving Low Power Mode releases what waits.
            let later = try await self.push(provider, token, priority: 5, n: 3)
            #expect(
                await eventually {
                    (try? await DeliveryLogTests.events(emulator, later))?.last == "Stored - Power Considerations"
                })
            _ = try await device.setPower(lowPowerMode: false)
            #expect(try await device.next().uniqueID == later)
        }
    }

    @Test(
        "locked (set through the admin API): priority 1 never wakes the device, priority 5 goes; unlocking delivers it; the device hears the change"
    )
    func locked() async throws {
        try await withEmulator { emulator in
            let device = try await emulator.device("phone")
            let token = try await device.register(topic: Self.topic)
            let state = try await emulator.adminObject(
                "/api/v1/devices/\(token.hex)/power", method: "PUT", body: #"{"locked": true}"#)
            #expect(
                state["locked"] as? Bool == true && state["online"] as? Bool == true && state["deviceId"] as? String == "phone")
            let heard = try await device.nextEvent { if case .power = $0 { true } else { false } }
            guard case .power(let power) = heard else {
                Issue.record("\(heard)")
                return
            }
            #expect(power.locked)

            let provider = try await emulator.http2Client()
            let quiet = try await self.push(provider, token, priority: 1, n: 1)
            let normal = try await self.push(provider, token, priority: 5, n: 2)
            #expect(try await device.next().uniqueID == normal)
            #expect(try await emulator.adminObject("/api/v1/devices/\(token.hex)/power")["locked"] as? Bool == true)
            _ = try await emulator.adminObject("/api/v1/devices/\(token.hex)/power", method: "PUT", body: #"{"locked": false}"#)
            #expect(try await device.next().uniqueID == quiet)
        }
    }

    @Test(
        "offline while connected: the newest push per app is stored (device offline), the older replaced, and it is delivered from storage when the device is back online"
    )
    func offline() async throws {
        // "APNs stores only one notification per bundle ID. When you send multiple notifications to
        // the same device for a bundle ID, APNs selects only one notification to store. In most
        // cases, the latest notification is stored." (Apple, "Sending notification requests to APNs")
        try await withEmulator { emulator in
            let device = try await emulator.device("phone")
            let token = try await device.register(topic: Self.topic)
            _ = try await emulator.adminObject("/api/v1/devices/\(token.hex)/power", method: "PUT", body: #"{"online": false}"#)
            #expect(
                await eventually {
                    (try? await emulator.adminObject("/api/v1/devices/\(token.hex)/power")["online"] as? Bool) == false
                })
            let provider = try await emulator.http2Client()
            // The session hears of the change on its own event loop: the first push is stored once it has.
            let older = try await self.push(provider, token, priority: 10, n: 0)
            #expect(
                await eventually {
                    (try? await DeliveryLogTests.events(emulator, older)) == ["Received by APNs", "Stored - Device Offline"]
                })
            let newer = try await self.push(provider, token, priority: 10, n: 1)
            #expect(
                try await DeliveryLogTests.events(emulator, older) == [
                    "Received by APNs", "Stored - Device Offline", "Replaced - Newer Notification",
                ])
            #expect(try await emulator.queued(token.hex).compactMap { $0["uniqueId"] as? String } == [newer])

            _ = try await device.setPower(online: true)
            let notification = try await device.next()
            #expect(notification.uniqueID == newer)
            try await device.acknowledge(notification.uniqueID)
            #expect(
                await eventually {
                    (try? await DeliveryLogTests.events(emulator, newer))?.contains("Delivered to Device (From Storage)") == true
                })
        }
    }

    @Test("a power document that is not one is 400 naming the member, and changes nothing")
    func refused() async throws {
        try await withEmulator { emulator in
            let device = try await emulator.device("phone")
            let token = try await device.register(topic: Self.topic)
            for (body, word) in [
                (#"{"lowPowerMode": "yes"}"#, "lowPowerMode"), (#"{"asleep": true}"#, "asleep"), ("[]", "JSON object"),
            ] {
                let answer = try await emulator.admin("/api/v1/devices/\(token.hex)/power", method: "PUT", body: body)
                #expect(answer.status == 400 && answer.text.contains(word), "\(body): \(answer.text)")
            }
            #expect(try await emulator.adminObject("/api/v1/devices/\(token.hex)/power")["lowPowerMode"] as? Bool == false)
            #expect(try await emulator.admin("/api/v1/devices/\(String(repeating: "ab", count: 32))/power").status == 404)
            // Asking with nothing to change answers the state as it is.
            #expect(
                try await device.setPower()
                    == DevicePowerState(deviceId: "phone", online: true, lowPowerMode: false, locked: false))
        }
    }
}

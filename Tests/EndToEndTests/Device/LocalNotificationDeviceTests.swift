import APNsCore
import APNsDevice
import APNsDeviceClient
import APNsInspection
import APNsTestSupport
import Foundation
import Testing

/// Local notifications the app itself schedules, lists and cancels over the device protocol.
@Suite("Local notifications over the device protocol")
struct LocalNotificationDeviceTests {
    static let topic = LocalNotificationEndToEndTests.topic

    func advance(_ emulator: RunningEmulator, _ by: String) async throws {
        try await LocalNotificationEndToEndTests().advance(emulator, by)
    }

    @Test("the app schedules, lists and cancels over the device protocol; what fires reaches the device as local, presented")
    func deviceProtocol() async throws {
        try await withEmulator { emulator in
            let device = try await emulator.device("planner-phone")
            let reminder = ScheduleDocument(
                identifier: "standup", content: LocalContent(title: "Stand up", body: "Daily meeting", sound: "default"),
                trigger: .timeInterval(seconds: 600, repeats: false)
            )
            // Nowhere to show it before the app holds a token on this device.
            await #expect { _ = try await device.schedule(topic: Self.topic, reminder) } throws: { error in
                (error as? DeviceClientError)?.code == .declined
                    && (error as? DeviceClientError)?.message.hasPrefix("409") == true
            }
            let token = try await device.register(topic: Self.topic)
            _ = try await device.requestAuthorization(topic: Self.topic, options: [.alert, .sound], userAllows: true)

            let scheduled = try await device.schedule(topic: Self.topic, reminder)
            #expect(scheduled.request.identifier == "standup" && scheduled.evicted.isEmpty)
            // The clock has not moved: its time is real time.
            let now = Int(Date().timeIntervalSince1970 * 1000)
            #expect(abs(Int(try #require(scheduled.request.nextFireAt)) - (now + 600_000)) < 5_000)
            let water =
                #"{"identifier": "water", "content": {"title": "Drink", "userInfo": {"glass": 1}}, "trigger": {"type": "timeInterval", "seconds": 3600, "repeats": true}}"#
            _ = try await device.schedule(topic: Self.topic, document: Array(water.utf8))
            #expect(try await device.pendingRequests(topic: Self.topic).map(\.identifier) == ["standup", "water"])
            // The admin API sees the same requests, under the token.
            #expect(try await emulator.adminObject("/api/v1/devices/\(token.hex)/pending")["total"] as? Int == 2)

            // Bad requests are declined with the field at fault; the session goes on.
            let tooOften =
                #"{"identifier": "x", "content": {}, "trigger": {"type": "timeInterval", "seconds": 30, "repeats": true}}"#
            await #expect { _ = try await device.schedule(topic: Self.topic, document: Array(tooOften.utf8)) } throws: { error in
                let message = (error as? DeviceClientError)?.message ?? ""
                return message.hasPrefix("400") && message.contains("60")
            }
            await #expect { try await device.cancelPending(topic: Self.topic, identifier: "nope") } throws: { error in
                (error as? DeviceClientError)?.message.hasPrefix("404") == true
            }

            try await self.advance(emulator, "11m")
            let notification = try await device.next()
            #expect(notification.source == .local && notification.topic == Self.topic && notification.token == token)
            let presentation = try await device.presentation(of: notification.uniqueID)
            #expect(
                presentation.shown && presentation.title == "Stand up" && presentation.body == "Daily meeting"
                    && presentation.sound == "default")
            try await device.acknowledge(notification.uniqueID)
            #expect(try await device.pendingRequests(topic: Self.topic).map(\.identifier) == ["water"])

            // Cancelling everything empties the list and takes the shown one out of Notification Center.
            #expect(try await emulator.adminObject("/api/v1/devices/\(token.hex)/delivered")["total"] as? Int == 1)
            #expect(try await device.cancelPending(topic: Self.topic, identifier: nil) == 1)
            #expect(try await device.pendingRequests(topic: Self.topic).isEmpty)
            #expect(try await emulator.adminObject("/api/v1/devices/\(token.hex)/delivered")["total"] as? Int == 0)

            try await self.changeTimeZone(device, emulator, token: token)
        }
    }

    /// The person changes the phone's time zone; a floating 07:00 follows it.
    private func changeTimeZone(_ device: DeviceClient, _ emulator: RunningEmulator, token: DeviceToken) async throws {
        // The person changes the phone's time zone; a floating 07:00 follows it.
        let daily = ScheduleDocument(
            identifier: "wake", content: LocalContent(title: "Wake"),
            trigger: .calendar(components: DateComponentsValue(hour: 7, minute: 0), timeZone: nil, repeats: true))
        _ = try await device.schedule(topic: Self.topic, daily)
        #expect(try await device.setTimeZone(topic: Self.topic, "Asia/Tokyo").timeZone == "Asia/Tokyo")
        let next = try #require(try await device.pendingRequests(topic: Self.topic).first?.nextFireAt)
        let tokyo = try #require(TimeZone(identifier: "Asia/Tokyo"))
        let local = Calendar(identifier: .gregorian).dateComponents(
            in: tokyo, from: Date(timeIntervalSince1970: Double(next) / 1000))
        #expect(local.hour == 7 && local.minute == 0)
        #expect(try await emulator.adminObject("/api/v1/devices/\(token.hex)/app")["timeZone"] as? String == "Asia/Tokyo")
        await #expect { _ = try await device.setTimeZone(topic: Self.topic, "Mars/Olympus") } throws: { error in
            (error as? DeviceClientError)?.message.hasPrefix("400") == true
        }
        try await device.close()
    }
}

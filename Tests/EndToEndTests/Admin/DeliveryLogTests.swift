import APNsCore
import APNsDeviceClient
import APNsInspection
import APNsTestSupport
import Foundation
import Testing

/// The delivery log of each notification, in the words of Apple's Push Notifications Console.
///
/// Sources: "Viewing the status of push notifications using Metrics and APNs" (Apple Developer
/// Documentation, apple-docs.everest.mt/docs/usernotifications/viewing-the-status-of-push-notifications-using-metrics-and-apns/):
/// the Console shows for each apns-unique-id the states a notification passed through; its
/// metrics are Received by APNs, Delivered to Device, Delivered to Device (From Storage), Stored -
/// Device Offline, Stored - Power Considerations, Discarded - Token Unregistered (and From
/// Storage), Discarded - Expired, Discarded - Disabled (and From Storage); the metric list as
/// summarised at seacode.uk/swift/push-notifications-console. APNs discards a notification whose
/// token is no longer active, whose app's notifications the person turned off, or that expired.
@Suite("The delivery log")
struct DeliveryLogTests {
    static let topic = "com.example.log"

    static func events(_ emulator: RunningEmulator, _ uniqueID: String) async throws -> [String] {
        let log = try await emulator.adminObject("/api/v1/notifications/\(uniqueID)/delivery-log")
        return (log["events"] as? [[String: Any]] ?? []).compactMap { $0["event"] as? String }
    }

    static func push(
        _ provider: HTTP2TestClient, _ token: DeviceToken, priority: Int = 10, headers: [(String, String)] = [],
        json: String = #"{"aps":{"alert":"hi"}}"#
    ) async throws -> String {
        try await provider.accepted(token: token.hex, topic: Self.topic, priority: priority, headers: headers, json: json)
    }

    /// The value of a Console counter for alert pushes of `priority`.
    static func counter(_ emulator: RunningEmulator, _ name: String, priority: Int = 10) async throws -> Double {
        let metric = ConsoleMetrics.prometheusName(name)
        for line in try await emulator.admin("/metrics").text.split(separator: "\n") where line.hasPrefix(metric + "{") {
            guard line.contains(#"push_type="alert""#), line.contains(#"priority="\#(priority)""#) else { continue }
            return Double(line.split(separator: " ").last ?? "") ?? -1
        }
        return 0
    }

    @Test(
        "offline, then reconnect: received, stored (device offline), delivered from storage, the phone's decision; counted by push type and priority"
    )
    func offlineThenDelivered() async throws {
        try await withEmulator { emulator in
            let token = try await emulator.offlineToken(topic: Self.topic)
            let provider = try await emulator.http2Client()
            let id = try await Self.push(provider, token)
            #expect(try await Self.events(emulator, id) == ["Received by APNs", "Stored - Device Offline"])

            let device = try await emulator.device("phone")
            _ = try await device.resume([token])
            let notification = try await device.next()
            try await device.acknowledge(notification.uniqueID)
            let expected = [
                "Received by APNs", "Stored - Device Offline", "Delivered to Device (From Storage)", "Phone Decision",
            ]
            #expect(await eventually { (try? await Self.events(emulator, id)) == expected })

            // Each step has a time on the emulator's clock and words for a person.
            let log = try await emulator.adminObject("/api/v1/notifications/\(id)/delivery-log")
            let steps = try #require(log["events"] as? [[String: Any]])
            let times = steps.compactMap { ($0["at"] as? String).flatMap(Timestamp.parse) }
            #expect(times.count == 4 && times == times.sorted())
            #expect(log["status"] as? String == "delivered")
            #expect((steps.last?["detail"] as? String)?.contains("not shown") == true)  // the app never asked for authorization

            #expect(try await Self.counter(emulator, "Received by APNs") == 1)
            #expect(try await Self.counter(emulator, "Stored - Device Offline") == 1)
            #expect(try await Self.counter(emulator, "Delivered to Device (From Storage)") == 1)
            #expect(try await Self.counter(emulator, "Delivered to Device") == 0)
        }
    }

    @Test("online: received, delivered to device; a notification the user turned off is Discarded - Disabled")
    func onlineAndDisabled() async throws {
        try await withEmulator { emulator in
            let device = try await emulator.device("phone")
            let token = try await device.register(topic: Self.topic)
            let provider = try await emulator.http2Client()
            let id = try await Self.push(provider, token)
            try await device.acknowledge(try await device.next().uniqueID)
            #expect(
                await eventually {
                    (try? await Self.events(emulator, id)) == ["Received by APNs", "Delivered to Device", "Phone Decision"]
                })

            _ = try await device.requestAuthorization(topic: Self.topic, options: [.alert, .sound], userAllows: false)
            let off = try await Self.push(provider, token)
            try await device.acknowledge(try await device.next().uniqueID)
            #expect(
                await eventually {
                    (try? await Self.events(emulator, off)) == ["Received by APNs", "Discarded - Disabled", "Phone Decision"]
                })
            #expect(try await Self.counter(emulator, "Discarded - Disabled") == 1)
        }
    }

    @Test("stored, then the app is removed: Discarded - Token Unregistered (From Storage); expired: Discarded - Expired")
    func discarded() async throws {
        try await withEmulator { emulator in
            let token = try await emulator.offlineToken(topic: Self.topic)
            let provider = try await emulator.http2Client()
            let id = try await Self.push(provider, token)
            _ = try await emulator.adminObject("/api/v1/devices/\(token.hex)/unregister", method: "POST")
            #expect(
                await eventually {
                    (try? await Self.events(emulator, id)) == [
                        "Received by APNs", "Stored - Device Offline", "Discarded - Token Unregistered (From Storage)",
                    ]
                })
            #expect(try await emulator.journal("token=\(token.hex)").first?["status"] as? String == "unregistered")
            #expect(try await Self.counter(emulator, "Discarded - Token Unregistered (From Storage)") == 1)

            let other = try await emulator.offlineToken(topic: Self.topic, device: "tablet")
            let expiring = try await Self.push(
                provider, other, headers: [("apns-expiration", "\(Int(Date().timeIntervalSince1970) + 60)")])
            _ = try await emulator.adminObject("/api/v1/clock", method: "POST", body: #"{"advance": "2m"}"#)
            #expect(
                await eventually {
                    (try? await Self.events(emulator, expiring)) == [
                        "Received by APNs", "Stored - Device Offline", "Discarded - Expired",
                    ]
                })

            // A rejected request has no delivery log; an unknown id is 404.
            let rejected = try await provider.push(token: "00", topic: Self.topic, json: "{}")
            #expect(rejected.status == 400)
            let rejectedID = try #require(try await emulator.journal("status=rejected").first?["id"] as? String)
            #expect(try await emulator.admin("/api/v1/notifications/\(rejectedID)/delivery-log").status == 409)
            #expect(try await emulator.admin("/api/v1/notifications/nope/delivery-log").status == 404)
        }
    }
}

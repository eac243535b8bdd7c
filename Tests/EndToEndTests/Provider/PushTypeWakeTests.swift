import APNsCore
import APNsDeviceClient
import APNsTestSupport
import Foundation
import Testing

/// The push types that wake part of an app, acted on by the emulated phone, each over real
/// HTTP/2 and TLS to a connected device.
///
/// Sources: Apple's "Sending notification requests to APNs" (the push types and their topics:
/// `.push-type.widgets`, `.voip-ptt`, `.location-query`, `.complication`,
/// `.pushkit.fileprovider`); "Updating widgets with WidgetKit push notifications" (payload
/// `{"aps": {"content-changed": true}}`) and "Keeping a widget up to date" (a daily reload budget,
/// typically 40 to 70, not counted while the app is in the foreground); "Updating controls
/// locally and remotely"; PushToTalk's `incomingPushResult` (`activeRemoteParticipant` or
/// `leaveChannel`) and the Developer Forums answer on `ptt-push-type: service-update`
/// (thread 787878); "Creating a location push service extension" ("always" authorization).
@Suite("Push types on the phone")
struct PushTypeWakeTests {
    static let bundle = "com.example.wake"

    struct Phone {
        let emulator: RunningEmulator
        let device: DeviceClient
        /// The app's own token; a push type with a topic suffix has a token of its own (WidgetKit's,
        /// PushToTalk's, Core Location's), registered for the suffixed topic.
        let token: DeviceToken
        let provider: HTTP2TestClient

        static func start() async throws -> Phone {
            let emulator = try await RunningEmulator.start()
            let device = try await emulator.device("phone")
            let token = try await device.register(topic: PushTypeWakeTests.bundle)
            return Phone(emulator: emulator, device: device, token: token, provider: try await emulator.http2Client())
        }

        /// Pushes, takes the notification on the device, and returns what the phone did.
        func push(_ type: String, suffix: String, priority: Int = 10, json: String) async throws -> [String: Any] {
            let token = suffix.isEmpty ? self.token : try await self.device.register(topic: PushTypeWakeTests.bundle + suffix)
            let response = try await self.provider.push(
                token: token.hex,
                headers: [
                    ("apns-topic", PushTypeWakeTests.bundle + suffix), ("apns-push-type", type), ("apns-priority", "\(priority)"),
                ], json: json)
            #expect(response.status == 200, "\(type): \(response.reason ?? "")")
            let id = try #require(response.header("apns-unique-id"))
            let notification = try await self.device.next()
            #expect(notification.uniqueID == id && notification.pushType.rawValue == type)
            try await self.device.acknowledge(id)
            var wake: [String: Any] = [:]
            _ = await eventually {
                let entry = try? await self.emulator.adminObject("/api/v1/notifications/\(id)")
                wake = (entry?["presentation"] as? [String: Any])?["wake"] as? [String: Any] ?? [:]
                return !wake.isEmpty
            }
            return wake
        }
    }

    static func facts(_ wake: [String: Any]) -> [String: String] { wake["facts"] as? [String: String] ?? [:] }

    @Test(
        "widgets: content-changed reloads the timelines within the daily budget; beyond it the reload is deferred and counted; the delivery log ends with it"
    )
    func widgets() async throws {
        let phone = try await Phone.start()
        _ = try await phone.emulator.adminObject(
            "/api/v1/devices/\(phone.token.hex)/app", method: "PUT", body: #"{"widgetPushBudget": 2, "iosVersion": "26.0"}"#)
        let changed = #"{"aps": {"content-changed": true}}"#
        var outcomes: [String] = []
        for _ in 0..<3 {
            outcomes.append(
                try await phone.push("widgets", suffix: ".push-type.widgets", json: changed)["outcome"] as? String ?? "")
        }
        #expect(outcomes == ["reloaded", "reloaded", "deferred"])
        let app = try await phone.emulator.adminObject("/api/v1/devices/\(phone.token.hex)/app")
        let budget = try #require(app["widgetPushes"] as? [String: Any])
        #expect(budget["deferred"] as? Int == 1 && budget["perDay"] as? Int == 2 && (budget["reloads"] as? [Any])?.count == 2)

        let silent = try await phone.push("widgets", suffix: ".push-type.widgets", json: #"{"aps": {}}"#)
        #expect(silent["outcome"] as? String == "notWoken")
        // A refused budget is named.
        let bad = try await phone.emulator.admin(
            "/api/v1/devices/\(phone.token.hex)/app", method: "PUT", body: #"{"widgetPushBudget": -1}"#)
        #expect(bad.status == 400 && bad.text.contains("widgetPushBudget"))
        try await phone.emulator.stop()
    }

    // WidgetKit's WidgetPushHandler (iOS, macOS, watchOS, visionOS 26) and ControlPushHandler
    // (iOS 18; macOS, watchOS 26; not visionOS); PKPushType.complication's 50 a day on the watch.
    @Test("the device's platform: a watch's budgets are 50 a day; widget pushes need 26; a Vision Pro's controls take none")
    func platforms() async throws {
        let phone = try await Phone.start()
        let changed = #"{"aps": {"content-changed": true}}"#
        let old = try await phone.push("widgets", suffix: ".push-type.widgets", json: changed)
        #expect(old["outcome"] as? String == "notWoken" && (old["detail"] as? String)?.contains("iOS 26.0 or later") == true)
        let watch = try await phone.emulator.adminObject(
            "/api/v1/devices/\(phone.token.hex)/app", method: "PUT", body: #"{"platform": "watchOS", "iosVersion": "26.0"}"#)
        #expect(watch["platform"] as? String == "watchOS")
        #expect((watch["widgetPushes"] as? [String: Any])?["perDay"] as? Int == 50)
        let reloaded = try await phone.push("widgets", suffix: ".push-type.widgets", json: changed)
        #expect(reloaded["outcome"] as? String == "reloaded" && Self.facts(reloaded)["budgetPerDay"] == "50")
        _ = try await phone.emulator.adminObject(
            "/api/v1/devices/\(phone.token.hex)/app", method: "PUT", body: #"{"platform": "visionOS"}"#)
        let controls = try await phone.push("controls", suffix: ".push-type.controls", json: changed)
        #expect(controls["outcome"] as? String == "notWoken" && (controls["detail"] as? String)?.contains("visionOS") == true)
        let bad = try await phone.emulator.admin(
            "/api/v1/devices/\(phone.token.hex)/app", method: "PUT", body: #"{"platform": "tvOS"}"#)
        #expect(bad.status == 400 && bad.text.contains("watchOS"))
        try await phone.emulator.stop()
    }

    @Test("controls reload too, on their own budget")
    func controls() async throws {
        let phone = try await Phone.start()
        let wake = try await phone.push("controls", suffix: ".push-type.controls", json: #"{"aps": {"content-changed": true}}"#)
        #expect(wake["target"] as? String == "controls" && wake["outcome"] as? String == "reloaded")
        #expect(Self.facts(wake)["reloadsToday"] == "1")
        try await phone.emulator.stop()
    }

    @Test(
        "pushtotalk: the channel wakes with the active remote participant, leaves without one; a service update says whether it was high priority"
    )
    func pushToTalk() async throws {
        let phone = try await Phone.start()
        let speaking = try await phone.push("pushtotalk", suffix: ".voip-ptt", json: #"{"aps": {}, "activeSpeaker": "Ana"}"#)
        #expect(speaking["target"] as? String == "pushToTalkChannel" && Self.facts(speaking)["activeRemoteParticipant"] == "Ana")
        let nobody = try await phone.push("pushtotalk", suffix: ".voip-ptt", json: #"{"aps": {}}"#)
        #expect((nobody["detail"] as? String)?.contains("leaveChannel") == true)
        let update = try await phone.push(
            "pushtotalk", suffix: ".voip-ptt", priority: 5, json: #"{"aps": {"ptt-push-type": "service-update"}}"#)
        #expect(
            (update["detail"] as? String)?.contains("incomingServiceUpdatePush") == true
                && Self.facts(update)["isHighPriority"] == "false")
        try await phone.emulator.stop()
    }

    @Test("location wakes the extension only with always authorization")
    func location() async throws {
        let phone = try await Phone.start()
        let before = try await phone.push("location", suffix: ".location-query", json: #"{"aps": {}}"#)
        #expect(before["outcome"] as? String == "notWoken" && (before["detail"] as? String)?.contains("always") == true)
        _ = try await phone.emulator.adminObject(
            "/api/v1/devices/\(phone.token.hex)/app", method: "PUT", body: #"{"locationAuthorization": "authorizedAlways"}"#)
        let after = try await phone.push("location", suffix: ".location-query", json: #"{"aps": {}}"#)
        #expect(after["outcome"] as? String == "woken" && after["target"] as? String == "locationPushServiceExtension")
        try await phone.emulator.stop()
    }

    @Test("complication, fileprovider and mdm are recorded as woken with what the app is told")
    func others() async throws {
        let phone = try await Phone.start()
        let complication = try await phone.push("complication", suffix: ".complication", json: #"{"aps": {}}"#)
        #expect(complication["target"] as? String == "complication" && complication["outcome"] as? String == "woken")
        let files = try await phone.push("fileprovider", suffix: ".pushkit.fileprovider", json: #"{"aps": {}}"#)
        #expect(files["target"] as? String == "fileProviderExtension")
        let mdm = try await phone.push("mdm", suffix: "", json: #"{"mdm": "7A1B9C"}"#)
        #expect(mdm["target"] as? String == "mdmAgent" && Self.facts(mdm)["pushMagic"] == "7A1B9C")
        try await phone.emulator.stop()
    }
}

import APNsCore
import APNsDevice
import Foundation
import Testing

/// What the phone wakes for the push types that show nothing. Sources: "Keeping a widget up to
/// date" (a daily budget, typically 40-70; not counted while the app is in the foreground),
/// "Updating widgets with WidgetKit push notifications" (content-changed), PushToTalk's
/// incomingPushResult and the forum's ptt-push-type service-update (thread 787878), "Creating a
/// location push service extension" (always authorization).
@Suite("Push wake")
struct PushWakeTests {
    let changed = Array(#"{"aps": {"content-changed": true}}"#.utf8)

    func wake(
        _ type: PushType, _ payload: String, priority: Priority = .immediate, at: Int64 = 0, app: AppModel = AppModel()
    ) -> (WakeOutcome?, AppModel) {
        let (presentation, after) = PushWake.wake(
            pushType: type, payload: Array(payload.utf8), priority: priority, at: at, app: app)
        #expect(presentation.silent && !presentation.shown)
        return (presentation.wake, after)
    }

    @Test("widget reloads spend a 24-hour budget; the window slides; the foreground is free")
    func budget() {
        var app = AppModel()
        app.iosVersion = "26.0"
        app.widgetPushes.perDay = 2
        var outcomes: [String] = []
        for minute in 0..<3 {
            let (wake, after) = self.wake(.widgets, #"{"aps": {"content-changed": true}}"#, at: Int64(minute) * 60_000, app: app)
            outcomes.append(wake?.outcome.rawValue ?? "")
            app = after
        }
        #expect(outcomes == ["reloaded", "reloaded", "deferred"] && app.widgetPushes.deferred == 1)
        // A day after the first, one reload is free again.
        let (later, _) = self.wake(.widgets, #"{"aps": {"content-changed": true}}"#, at: 86_400_001, app: app)
        #expect(later?.outcome.rawValue == "reloaded")
        app.appState = .foreground
        let (foreground, unchanged) = self.wake(.widgets, #"{"aps": {"content-changed": true}}"#, at: 180_000, app: app)
        #expect(foreground?.outcome.rawValue == "reloaded" && unchanged.widgetPushes.reloads.count == 2)
        // Controls have a budget of their own.
        #expect(self.wake(.controls, #"{"aps": {"content-changed": true}}"#, app: app).0?.outcome.rawValue == "reloaded")
        let (unchanged26, _) = self.wake(.widgets, #"{"aps": {}}"#, app: app)
        #expect(unchanged26?.outcome.rawValue == "notWoken" && unchanged26?.detail.contains("content-changed") == true)
    }

    // WidgetKit: WidgetPushHandler is iOS, iPadOS, macOS, visionOS and watchOS 26;
    // ControlPushHandler is iOS and iPadOS 18, macOS and watchOS 26, not visionOS. PushKit's
    // PKPushType.complication: 50 pushes a day on the watch (the watch widget budget, a choice).
    @Test("platforms: widget pushes from 26 everywhere, control pushes from iOS 18 and macOS/watchOS 26, none on visionOS")
    func platforms() {
        func outcome(_ type: PushType, _ platform: DevicePlatform, _ version: String) -> WakeOutcome? {
            var app = AppModel()
            (app.platform, app.iosVersion) = (platform, version)
            return self.wake(type, #"{"aps": {"content-changed": true}}"#, app: app).0
        }
        for platform in DevicePlatform.allCases {
            #expect(outcome(.widgets, platform, "26.0")?.outcome.rawValue == "reloaded", "\(platform)")
            let old = outcome(.widgets, platform, "18.4")
            #expect(old?.outcome.rawValue == "notWoken" && old?.detail.contains("WidgetPushHandler") == true, "\(platform)")
        }
        #expect(outcome(.controls, .iOS, "18.0")?.outcome.rawValue == "reloaded")
        #expect(outcome(.controls, .iPadOS, "18.0")?.outcome.rawValue == "reloaded")
        #expect(outcome(.controls, .macOS, "18.0")?.outcome.rawValue == "notWoken")
        #expect(outcome(.controls, .macOS, "26.0")?.outcome.rawValue == "reloaded")
        #expect(outcome(.controls, .watchOS, "26.0")?.outcome.rawValue == "reloaded")
        let vision = outcome(.controls, .visionOS, "26.0")
        #expect(vision?.outcome.rawValue == "notWoken" && vision?.detail.contains("visionOS has no ControlPushHandler") == true)
    }

    @Test("budgets follow the platform (a watch 50 a day, others 70) unless the app chose one")
    func platformBudgets() throws {
        var app = AppModel()
        #expect(app.widgetPushes.perDay == 70)
        app.platform = .watchOS
        #expect(app.widgetPushes.perDay == 50 && app.controlPushes.perDay == 50)
        let chosen = try JSONDecoder().decode(AppUpdate.self, from: Data(#"{"widgetPushBudget": 12}"#.utf8))
        app = chosen.applied(to: app)
        app.platform = .macOS
        #expect(app.widgetPushes.perDay == 12 && app.controlPushes.perDay == 70)
        #expect {
            try JSONDecoder().decode(AppUpdate.self, from: Data(#"{"platform": "tvOS"}"#.utf8))
        } throws: { error in
            (error as? DeviceModelError).map { "\($0)".contains("platform tvOS is not one of iOS") } ?? false
        }
    }

    @Test("push to talk, location and the rest")
    func others() {
        #expect(self.wake(.pushtotalk, #"{"aps": {}, "activeSpeaker": "Ana"}"#).0?.facts["activeRemoteParticipant"] == "Ana")
        #expect(
            self.wake(.pushtotalk, #"{"aps": {"ptt-push-type": "service-update"}}"#, priority: .conservePower).0?.facts[
                "isHighPriority"] == "false")
        #expect(self.wake(.location, #"{"aps": {}}"#).0?.outcome.rawValue == "notWoken")
        var always = AppModel()
        always.locationAuthorization = .authorizedAlways
        #expect(self.wake(.location, #"{"aps": {}}"#, app: always).0?.outcome.rawValue == "woken")
        #expect(self.wake(.mdm, #"{"mdm": "magic"}"#).0?.facts["pushMagic"] == "magic")
        #expect(PushWake.handles(.fileprovider) && !PushWake.handles(.alert) && !PushWake.handles(.liveactivity))
    }
}

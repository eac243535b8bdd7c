import APNsCore
import APNsDevice
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
        app.widgetPushes.perDay = 2
        var outcomes: [String] = []
        for minute in 0..<3 {
            let (wake, after) = self.wake(.widgets, #"{"aps": {"content-changed": true}}"#, at: Int64(minute) * 60_000, app: app)
            outcomes.append(wake?.outcome ?? "")
            app = after
        }
        #expect(outcomes == ["reloaded", "reloaded", "deferred"] && app.widgetPushes.deferred == 1)
        // A day after the first, one reload is free again.
        let (later, _) = self.wake(.widgets, #"{"aps": {"content-changed": true}}"#, at: 86_400_001, app: app)
        #expect(later?.outcome == "reloaded")
        app.appState = .foreground
        let (foreground, unchanged) = self.wake(.widgets, #"{"aps": {"content-changed": true}}"#, at: 180_000, app: app)
        #expect(foreground?.outcome == "reloaded" && unchanged.widgetPushes.reloads.count == 2)
        // Controls have a budget of their own.
        #expect(self.wake(.controls, #"{"aps": {"content-changed": true}}"#, app: app).0?.outcome == "reloaded")
        #expect(self.wake(.widgets, #"{"aps": {}}"#).0?.outcome == "notWoken")
    }

    @Test("push to talk, location and the rest")
    func others() {
        #expect(self.wake(.pushtotalk, #"{"aps": {}, "activeSpeaker": "Ana"}"#).0?.facts["activeRemoteParticipant"] == "Ana")
        #expect(
            self.wake(.pushtotalk, #"{"aps": {"ptt-push-type": "service-update"}}"#, priority: .conservePower).0?.facts[
                "isHighPriority"] == "false")
        #expect(self.wake(.location, #"{"aps": {}}"#).0?.outcome == "notWoken")
        var always = AppModel()
        always.locationAuthorization = .authorizedAlways
        #expect(self.wake(.location, #"{"aps": {}}"#, app: always).0?.outcome == "woken")
        #expect(self.wake(.mdm, #"{"mdm": "magic"}"#).0?.facts["pushMagic"] == "magic")
        #expect(PushWake.handles(.fileprovider) && !PushWake.handles(.alert) && !PushWake.handles(.liveactivity))
    }
}

import APNsDevice
import Testing

/// Interruption levels, provisional authorization and critical alerts, each rule with its source:
/// Apple's "UNNotificationInterruptionLevel" page (passive: "adds the notification to the
/// notification list without lighting up the screen or playing a sound"; critical: "bypasses the
/// mute switch to play a sound"), "Asking permission to use notifications" (provisional:
/// delivered quietly, Notification Center only), and the `interruption-level` and `sound`
/// dictionary keys of "Generating a remote notification".
@Suite("The phone: interruption levels and quiet delivery")
struct InterruptionLevelTests {
    static let all = Authorization(status: .authorized, alert: true, sound: true, badge: true)

    func present(
        _ json: String, authorization: Authorization = all, entitlements: Set<AppEntitlement> = []
    ) -> (
        Presentation, AppModel
    ) {
        var app = AppModel()
        app.authorization = authorization
        app.entitlements = entitlements
        return Presenter.present(payload: Array(json.utf8), uniqueID: "u1", at: 1_000, to: app)
    }

    @Test("no level is active; passive goes to Notification Center without banner or sound, the badge still set")
    func passive() {
        let (plain, _) = self.present(#"{"aps":{"alert":"Hi","sound":"default"}}"#)
        #expect(plain.interruptionLevel == .active && !plain.deliveredQuietly && plain.style == .banner)
        let (quiet, app) = self.present(#"{"aps":{"alert":"Hi","sound":"default","badge":2,"interruption-level":"passive"}}"#)
        #expect(quiet.interruptionLevel == .passive)
        #expect(quiet.shown && quiet.deliveredQuietly && quiet.style == .none && quiet.heldBy == nil)
        #expect(quiet.sound == nil && quiet.suppressed.map(\.what) == ["sound"])
        #expect(quiet.badge == 2 && app.badge == 2 && app.delivered.count == 1)
    }

    @Test("time-sensitive needs the capability and the user's switch; otherwise it is active, saying why")
    func timeSensitive() {
        let payload = #"{"aps":{"alert":"Hi","interruption-level":"time-sensitive"}}"#
        let (missing, _) = self.present(payload)
        #expect(missing.interruptionLevel == .active)
        #expect(missing.notes.contains { $0.contains("Time Sensitive Notifications capability") })
        let (granted, _) = self.present(payload, entitlements: [.timeSensitive])
        #expect(granted.interruptionLevel == .timeSensitive && granted.style == .banner && granted.notes.isEmpty)
        var off = Self.all
        off.timeSensitive = false
        let (turnedOff, _) = self.present(payload, authorization: off, entitlements: [.timeSensitive])
        #expect(turnedOff.interruptionLevel == .active)
        #expect(turnedOff.notes.contains { $0.contains("turned Time Sensitive Notifications off") })
    }

    @Test("critical needs the entitlement and the user's critical-alert authorization; its sound plays even with sounds off")
    func critical() {
        let payload =
            #"{"aps":{"alert":"Leak","interruption-level":"critical","sound":{"critical":1,"name":"default","volume":0.8}}}"#
        var authorization = Authorization(status: .authorized, alert: true, sound: false, badge: true)
        let (noAuthorization, _) = self.present(payload, authorization: authorization, entitlements: [.criticalAlerts])
        #expect(noAuthorization.interruptionLevel == .active && noAuthorization.sound == nil)
        #expect(noAuthorization.notes.contains { $0.contains("not allowed critical alerts") })
        authorization.criticalAlert = true
        let (noEntitlement, _) = self.present(payload, authorization: authorization)
        #expect(noEntitlement.interruptionLevel == .active && noEntitlement.sound == nil)
        let (critical, _) = self.present(payload, authorization: authorization, entitlements: [.criticalAlerts])
        #expect(critical.interruptionLevel == .critical && critical.sound == "default" && critical.suppressed.isEmpty)
        #expect(critical.notes.contains { $0.contains("through the mute switch") && $0.contains("0.8") })
    }

    @Test("provisional: quietly to Notification Center, no sound or badge, held by provisional; asking for real prompts")
    func provisional() {
        let answer = Authorization.notDetermined.request([.alert, .sound, .badge, .provisional], userAllows: false)
        #expect(answer.authorization.status == .provisional && answer.granted && !answer.prompted)
        let (shown, app) = self.present(
            #"{"aps":{"alert":"Hi","sound":"default","badge":4}}"#, authorization: answer.authorization)
        #expect(shown.shown && shown.deliveredQuietly && shown.style == .none && shown.heldBy == "provisional")
        #expect(shown.sound == nil && shown.badge == nil && shown.suppressed.map(\.what) == ["sound", "badge"])
        #expect(app.delivered.count == 1 && app.badge == 0)
        let full = answer.authorization.request([.alert, .sound], userAllows: true)
        #expect(full.prompted && full.authorization.status == .authorized && full.authorization.sound)
    }

    @Test("a level iOS does not know is active, saying so")
    func unknownLevel() {
        let (shown, _) = self.present(#"{"aps":{"alert":"Hi","interruption-level":"urgent"}}"#)
        #expect(shown.interruptionLevel == .active)
        #expect(shown.notes.contains { $0.contains("is not passive, active, time-sensitive or critical") })
    }
}

import APNsDevice
import Testing

/// A Focus (Apple Support, "Use a Focus on your iPhone": allowed apps, and Time Sensitive
/// notifications that may break through; "UNNotificationInterruptionLevel": critical alerts
/// break through a Focus): what it silences is delivered quietly to Notification Center.
@Suite("The phone: Focus")
struct FocusPresentationTests {
    static let all = Authorization(status: .authorized, alert: true, sound: true, badge: true)

    func present(
        _ json: String, focus: Focus, topic: String = "com.example.app", entitlements: Set<AppEntitlement> = []
    )
        -> Presentation
    {
        var app = AppModel()
        (app.authorization, app.entitlements, app.focus) = (Self.all, entitlements, focus)
        return Presenter.present(payload: Array(json.utf8), uniqueID: "u1", at: 1_000, to: app, topic: topic).0
    }

    @Test("an app the Focus does not allow is delivered quietly, held by focus; an allowed one interrupts")
    func silenced() {
        let work = Focus(name: "Work", allowedApps: ["com.example.chat"])
        let held = self.present(#"{"aps":{"alert":"Sale!","sound":"default","badge":1}}"#, focus: work)
        #expect(held.shown && held.deliveredQuietly && held.heldBy == "focus" && held.style == .none)
        #expect(held.sound == nil && held.badge == 1 && !held.brokeThrough)
        #expect(held.suppressed.first?.reason.contains("the Focus Work does not allow the app") == true)
        let allowed = self.present(#"{"aps":{"alert":"Hi","sound":"default"}}"#, focus: work, topic: "com.example.chat")
        #expect(!allowed.deliveredQuietly && allowed.heldBy == nil && allowed.sound == "default" && allowed.style == .banner)
    }

    @Test("time-sensitive breaks through when the Focus lets it; critical always does")
    func breakThrough() {
        let urgent = #"{"aps":{"alert":"Ride here","sound":"default","interruption-level":"time-sensitive"}}"#
        let through = self.present(urgent, focus: Focus(name: "Sleep"), entitlements: [.timeSensitive])
        #expect(through.brokeThrough && !through.deliveredQuietly && through.sound == "default")
        let closed = self.present(urgent, focus: Focus(name: "Sleep", timeSensitive: false), entitlements: [.timeSensitive])
        #expect(!closed.brokeThrough && closed.deliveredQuietly && closed.heldBy == "focus")
        let noCapability = self.present(urgent, focus: Focus(name: "Sleep"))
        #expect(!noCapability.brokeThrough && noCapability.heldBy == "focus" && noCapability.interruptionLevel == .active)
        var app = AppModel()
        app.authorization = Authorization(status: .authorized, alert: true, sound: true, criticalAlert: true)
        (app.entitlements, app.focus) = ([.criticalAlerts], Focus(name: "Do Not Disturb", timeSensitive: false))
        let critical = Presenter.present(
            payload: Array(
                #"{"aps":{"alert":"Flood","interruption-level":"critical","sound":{"critical":1,"name":"default"}}}"#.utf8),
            uniqueID: "u2", at: 1_000, to: app, topic: "com.example.app"
        ).0
        #expect(critical.brokeThrough && critical.sound == "default" && critical.heldBy == nil)
    }
}

import APNsDevice
import Testing

/// VoIP pushes. Source: Apple, `pushRegistry(_:didReceiveIncomingPushWith:for:completion:)`: "On
/// iOS 13.0 and later, if you fail to report a call to CallKit, the system will terminate your
/// app. Repeatedly failing to report calls may cause the system to stop delivering any more VoIP
/// push notifications to your app."
@Suite("The phone: VoIP pushes")
struct VoIPPushTests {
    func push(_ app: AppModel) -> (WakeOutcome?, AppModel) {
        let (presentation, after) = PushWake.wake(
            pushType: .voip, payload: Array(#"{"aps":{}}"#.utf8), priority: .immediate, at: 0, app: app)
        return (presentation.wake, after)
    }

    @Test(
        "an app that reports a call is woken; one that does not is terminated, and after three in a row gets none until launched")
    func reportCalls() {
        var app = AppModel()
        let (woken, _) = self.push(app)
        #expect(woken?.outcome == .woken && woken?.target == "pushKit")
        app.voipPushes.reportsCalls = false
        for failure in 1...3 {
            let (outcome, after) = self.push(app)
            #expect(outcome?.outcome == .terminated && outcome?.facts["failures"] == "\(failure)")
            app = after
        }
        #expect(app.voipPushes.stopped)
        app.voipPushes.reportsCalls = true
        let (stopped, _) = self.push(app)
        #expect(stopped?.outcome == .notWoken && stopped?.detail.contains("stopped delivering VoIP pushes") == true)
        app.voipPushes.launched()
        #expect(self.push(app).0?.outcome == .woken)
    }
}

import APNsDevice
import Testing

/// The presentation rules, each with the passage of Apple's guides (`../shared/seeds/`) it comes
/// from: seed file, then section.
@Suite("The phone: presentation")
struct PresenterTests {
    static let all = Authorization(status: .authorized, alert: true, sound: true, badge: true)

    func app(_ authorization: Authorization = all, _ change: (inout AppModel) -> Void = { _ in }) -> AppModel {
        var app = AppModel()
        app.authorization = authorization
        change(&app)
        return app
    }

    func present(_ json: String, to app: AppModel) -> (Presentation, AppModel) {
        Presenter.present(payload: Array(json.utf8), uniqueID: "u1", at: 1_000, to: app)
    }

    // Seed 000, "Registering Your iOS App's Supported User Interaction Types": an interaction the
    // user disallowed is skipped and the others still happen (the alert shows, no sound plays).
    @Test("sound disallowed: the alert shows, the sound is suppressed")
    func soundDisallowed() {
        let (shown, _) = self.present(
            #"{"aps":{"alert":"Hi","sound":"default"}}"#,
            to: self.app(Authorization(status: .authorized, alert: true, sound: false, badge: true)))
        #expect(shown.shown && shown.style == .banner && shown.body == "Hi")
        #expect(shown.sound == nil)
        #expect(shown.suppressed.map(\.what) == ["sound"])
    }

    // Seed 001, "Registering for Remote Notifications": with a type not enabled, the system neither
    // badges, alerts nor plays, whatever the payload asks. Seed 002, "Requesting Authorization to
    // Interact with the User": the user grants or denies.
    @Test("denied or never asked: nothing shown, each part suppressed with its reason")
    func notAuthorized() {
        for authorization in [Authorization.notDetermined, Authorization(status: .denied)] {
            let (shown, app) = self.present(#"{"aps":{"alert":"Hi","sound":"default","badge":3}}"#, to: self.app(authorization))
            #expect(!shown.shown && shown.style == .none)
            #expect(shown.suppressed.map(\.what) == ["alert", "sound", "badge"])
            #expect(app.badge == 0 && app.delivered.isEmpty)
        }
    }

    // Seed 000, "Registering Your iOS App's Supported User Interaction Types": an app that asks for
    // no interaction types gets every notification silently.
    @Test("authorized with no interaction types: every push is silent for the user")
    func requestedNone() {
        let answer = Authorization.notDetermined.request([], userAllows: true)
        let (shown, _) = self.present(#"{"aps":{"alert":"Hi","sound":"default","badge":1}}"#, to: self.app(answer.authorization))
        #expect(!shown.shown && shown.sound == nil && shown.badge == nil)
        #expect(shown.suppressed.count == 3)
    }

    // Seed 003, "Handling Notifications When Your App Is in the Foreground": the system silences a
    // foreground app's notifications unless the app's delegate returns options; seed 000,
    // "Handling an Actionable Notification", and seed 004 (the three app states): no alert, no badge.
    @Test("foreground app: no UI, the app is told; its presentation options let some through")
    func foreground() {
        let (quiet, app) = self.present(
            #"{"aps":{"alert":"Hi","sound":"default","badge":2}}"#, to: self.app { $0.appState = .foreground })
        #expect(!quiet.shown && quiet.appNotified)
        #expect(quiet.suppressed.map(\.what) == ["alert", "sound", "badge"])
        #expect(app.badge == 0 && app.delivered.isEmpty)

        let (allowed, after) = self.present(
            #"{"aps":{"alert":"Hi","sound":"default","badge":2}}"#,
            to: self.app {
                $0.appState = .foreground
                $0.foregroundOptions = ForegroundOptions(banner: true, sound: true)
            })
        #expect(allowed.shown && allowed.style == .banner && allowed.sound == "default" && allowed.appNotified)
        #expect(allowed.suppressed.map(\.what) == ["badge"])
        #expect(after.delivered.count == 1)
    }

    // Seed 000, "Handling Local and Remote Notifications": an app not in the foreground has the
    // system present for it (alert, badge, sound, buttons).
    @Test("background app: alert, sound and badge as authorized, into Notification Center")
    func background() {
        let (shown, app) = self.present(
            #"{"aps":{"alert":{"title":"T","subtitle":"S","body":"B"},"sound":"default","badge":5}}"#, to: self.app())
        #expect(shown.shown && shown.title == "T" && shown.subtitle == "S" && shown.body == "B")
        #expect(shown.sound == "default" && shown.badge == 5 && !shown.appNotified)
        #expect(app.badge == 5)
        #expect(app.delivered.map(\.uniqueID) == ["u1"])
    }

    @Test("the user's alert style decides between alert and banner")
    func alertStyle() {
        let (alert, _) = self.present(#"{"aps":{"alert":"Hi"}}"#, to: self.app { $0.alertStyle = .alert })
        #expect(alert.style == .alert)
        let (none, app) = self.present(#"{"aps":{"alert":"Hi"}}"#, to: self.app { $0.alertStyle = .none })
        #expect(none.shown && none.style == .none && app.delivered.count == 1)
    }

    // Not in the seeds: APNs' payload reference (APNS-REFERENCE.md, push type background) makes
    // content-available with nothing for the user a background update that wakes the app.
    @Test("silent push: nothing shown, the app woken")
    func silent() {
        let (woken, app) = self.present(#"{"aps":{"content-available":1},"k":"v"}"#, to: self.app())
        #expect(woken.silent && !woken.shown && woken.appNotified && woken.suppressed.isEmpty)
        #expect(app.delivered.isEmpty)
        let (nothing, _) = self.present(#"{"aps":{}}"#, to: self.app())
        #expect(nothing.silent && !nothing.appNotified && !nothing.notes.isEmpty)
    }

    // Seeds 000 and 002, "Preparing Custom Alert Sounds": a custom sound plays only if under 30 s;
    // longer, the default sound plays instead.
    @Test("sounds: bundled under 30 s plays; 30 s or more, or not bundled, plays the default with the reason")
    func sounds() {
        let app = self.app { $0.sounds = ["chime.caf": 2.5, "song.caf": 30] }
        #expect(self.present(#"{"aps":{"alert":"a","sound":"chime.caf"}}"#, to: app).0.sound == "chime.caf")
        let long = self.present(#"{"aps":{"alert":"a","sound":"song.caf"}}"#, to: app).0
        #expect(long.sound == "default" && long.notes.contains { $0.contains("30 s") })
        let missing = self.present(#"{"aps":{"alert":"a","sound":{"name":"nope.caf","critical":1}}}"#, to: app).0
        #expect(missing.sound == "default" && missing.notes.contains { $0.contains("not bundled") })
    }

    // Seed 002, "Adding Custom Actions to Your Categories": up to four actions, banners show two.
    // Seed 000, "Defining Your Actionable Notifications": without a minimal-context list, the first
    // two of the default context.
    @Test("actions: four at most in the alert context, the first two (or the explicit list) in the minimal one")
    func actions() {
        let actions = ["A", "B", "C", "D", "E"].map { NotificationAction(identifier: $0, title: "Do \($0)") }
        let app = self.app {
            $0.categories = [
                NotificationCategory(identifier: "THREE", actions: Array(actions.prefix(3))),
                NotificationCategory(identifier: "FIVE", actions: actions, minimalActions: ["C", "A"]),
            ]
        }
        let three = self.present(#"{"aps":{"alert":"x","category":"THREE"}}"#, to: app).0
        #expect(three.actions.map(\.identifier) == ["A", "B", "C"])
        #expect(three.minimalActions.map(\.identifier) == ["A", "B"])
        let five = self.present(#"{"aps":{"alert":"x","category":"FIVE"}}"#, to: app).0
        #expect(five.actions.map(\.identifier) == ["A", "B", "C", "D"])
        #expect(five.minimalActions.map(\.identifier) == ["C", "A"])
    }

    // Seed 000, "Scheduling an Actionable Notification": actions show only when the category the
    // payload names is registered; seed 002: without a category, no custom actions.
    @Test("an unregistered category shows no actions, and says so")
    func unregisteredCategory() {
        let shown = self.present(#"{"aps":{"alert":"x","category":"NOPE"}}"#, to: self.app()).0
        #expect(shown.shown && shown.actions.isEmpty && shown.category == "NOPE")
        #expect(shown.notes.contains { $0.contains("NOPE") })
    }

    // Seed 004 (localisation): the system localises when the notification fires, so a language
    // change in between is honoured. Seed 000, "Passing the Provider the Current Language
    // Preference": loc-key and loc-args are resolved on the device.
    @Test("localisation: keys resolved in the phone's language at presentation; a missing key shows as the key")
    func localisation() {
        var app = self.app {
            $0.strings = ["en": ["GREETING": "Hello %@", "TITLE": "%2$@ and %1$@"], "fr": ["GREETING": "Bonjour %@"]]
        }
        let payload =
            #"{"aps":{"alert":{"loc-key":"GREETING","loc-args":["Ann"],"title-loc-key":"TITLE","title-loc-args":["a","b"]}}}"#
        let english = self.present(payload, to: app).0
        #expect(english.body == "Hello Ann" && english.title == "b and a")
        app.language = "fr-CA"
        let french = self.present(payload, to: app).0
        #expect(french.body == "Bonjour Ann")
        #expect(french.title == "TITLE")
        #expect(french.localized.first { $0.field == "title" }?.found == false)
        #expect(
            french.localized.first { $0.field == "body" }
                == LocalizedText(field: "body", key: "GREETING", language: "fr-CA", found: true))
    }

    @Test("format specifiers: %@ in order, %n$@ by position, %% a percent sign")
    func fill() {
        #expect(Localizer.fill("%@ %@ 100%%", ["a", "b"]) == "a b 100%")
        #expect(Localizer.fill("%2$@-%1$@", ["a", "b"]) == "b-a")
        #expect(Localizer.fill("%@ %@", ["a"]) == "a ")
    }

    // Seed 004 (badges): a badge number set by a notification goes on the icon.
    @Test("badge: set on the icon when allowed, 0 clears it")
    func badge() {
        var (_, app) = self.present(#"{"aps":{"badge":7}}"#, to: self.app())
        #expect(app.badge == 7)
        (_, app) = self.present(#"{"aps":{"badge":0}}"#, to: app)
        #expect(app.badge == 0)
    }
}

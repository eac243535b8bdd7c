import APNsDevice
import Testing

@Suite("The phone: the user's responses")
struct UserResponseTests {
    static let invite = NotificationCategory(
        identifier: "INVITE",
        actions: [
            NotificationAction(identifier: "ACCEPT", title: "Accept"),
            NotificationAction(
                identifier: "REPLY", title: "Reply", textInput: .init(buttonTitle: "Send", placeholder: "Message")),
            NotificationAction(identifier: "OPEN", title: "Open", foreground: true),
        ],
        customDismissAction: true
    )

    func shown(style: AlertStyle = .banner, category: String = "INVITE", state: AppState = .notRunning) -> AppModel {
        var app = AppModel()
        app.authorization = Authorization(status: .authorized, alert: true, sound: true, badge: true)
        app.categories = [
            Self.invite,
            NotificationCategory(identifier: "PLAIN", actions: [NotificationAction(identifier: "ACCEPT", title: "Accept")]),
        ]
        app.alertStyle = style
        app.appState = state
        return Presenter.present(
            payload: Array(#"{"aps":{"alert":"x","category":"\#(category)"}}"#.utf8), uniqueID: "u1", at: 1, to: app
        ).1
    }

    // Seed 000, "Handling an Actionable Notification": a tap (the default action) launches the app
    // into the foreground.
    @Test("a tap launches the app into the foreground and takes the notification away")
    func tap() throws {
        let (response, app) = try UserResponse.respond(
            to: "u1", action: "default", text: nil, context: nil, at: 5, app: self.shown())
        #expect(response.launched && response.appState == .foreground && response.reported && response.context == .banner)
        #expect(app.appState == .foreground && app.delivered.isEmpty)
        #expect(throws: DeviceModelError.self) {
            try UserResponse.respond(to: "u1", action: "default", text: nil, context: nil, at: 6, app: app)
        }
    }

    // Seed 002, "Adding Custom Actions to Your Categories": banners show the first two actions
    // only; seed 000: the minimal context holds two.
    @Test("an action not offered in the banner is refused; in the alert context it is taken")
    func notOffered() throws {
        let app = self.shown()
        #expect(throws: DeviceModelError.self) {
            try UserResponse.respond(to: "u1", action: "OPEN", text: nil, context: .banner, at: 5, app: app)
        }
        let (response, after) = try UserResponse.respond(to: "u1", action: "OPEN", text: nil, context: .alert, at: 5, app: app)
        // A foreground action opens the app.
        #expect(response.appState == .foreground && after.appState == .foreground)
        #expect(throws: DeviceModelError.self) {
            try UserResponse.respond(to: "u1", action: "NOPE", text: nil, context: .alert, at: 5, app: app)
        }
    }

    // Seed 003, "Responding to the Selection of a Custom Action": an app that is not running is
    // launched in the background to handle the response.
    @Test("a background action runs the app in the background, not the foreground")
    func backgroundAction() throws {
        let (response, app) = try UserResponse.respond(
            to: "u1", action: "ACCEPT", text: nil, context: nil, at: 5, app: self.shown())
        #expect(response.appState == .background && response.launched && app.appState == .background)
    }

    // Seed 002, "Adding Custom Actions to Your Categories": a text-input action hands the app the
    // text the user typed.
    @Test("text goes only with a text-input action, and a text-input action needs it")
    func text() throws {
        let app = self.shown()
        let (response, _) = try UserResponse.respond(to: "u1", action: "REPLY", text: "On my way", context: nil, at: 5, app: app)
        #expect(response.text == "On my way")
        #expect(throws: DeviceModelError.self) {
            try UserResponse.respond(to: "u1", action: "ACCEPT", text: "hi", context: nil, at: 5, app: app)
        }
        #expect(throws: DeviceModelError.self) {
            try UserResponse.respond(to: "u1", action: "REPLY", text: nil, context: nil, at: 5, app: app)
        }
    }

    // Seed 002, "Registering the Notification Categories for Your App": the custom-dismiss option
    // is what makes the system tell the app of a dismissal; seed 003, "Handling the Standard
    // System Actions": an explicit dismissal is one of the system's own responses.
    @Test("a dismissal is reported only when the category asks for it")
    func dismiss() throws {
        let (reported, _) = try UserResponse.respond(
            to: "u1", action: "dismiss", text: nil, context: nil, at: 5, app: self.shown())
        #expect(reported.reported && reported.appState == .notRunning && !reported.launched)
        let (silent, app) = try UserResponse.respond(
            to: "u1", action: "dismiss", text: nil, context: nil, at: 5, app: self.shown(category: "PLAIN"))
        #expect(!silent.reported && app.delivered.isEmpty)
    }

    @Test("the context defaults to the style it was shown in")
    func defaultContext() throws {
        let (response, _) = try UserResponse.respond(
            to: "u1", action: "OPEN", text: nil, context: nil, at: 5, app: self.shown(style: .alert))
        #expect(response.context == .alert)
    }
}

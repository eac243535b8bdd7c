import APNsCore
import APNsDevice
import Testing

/// The emulated browser's decisions on a web push, as values. Sources: WebKit, "Meet Declarative
/// Web Push" (webkit.org/blog/16535) and the W3C Push API's declarative push message (w3c/push-api
/// pull request 385); the penalty for pushes without a notification, WebKit's page and "How to fix
/// iOS push subscriptions being terminated after 3 notifications" (dev.to).
@Suite("Web Push on the phone")
struct WebPushReceiverTests {
    static func app(kind: WebApp.Kind = .homeScreen, permission: WebApp.Permission = .granted) -> AppModel {
        var app = AppModel()
        app.authorization = Authorization(status: .authorized, alert: true, sound: true, badge: true)
        app.webApp = WebApp(
            id: "w1", origin: "https://app.example", kind: kind, permission: permission, applicationServerKey: "k",
            p256dh: "p", privateKey: "s", auth: "a", token: "00", hostToken: "11", device: "d", subscribedAt: 0)
        return app
    }

    static let facts = WebPushFacts(vapidSubject: "mailto:ops@app.example", urgency: "normal", topic: nil)

    static func receive(_ text: String, _ app: AppModel, id: String = "n1") -> (Presentation, AppModel) {
        WebPushReceiver.receive(opened: .success(Array(text.utf8)), facts: Self.facts, uniqueID: id, at: 1_000, to: app)
    }

    @Test("a declarative message: title and navigate required, web_push 8030, app_badge an integer from 0")
    func declarativeParsing() throws {
        let good =
            #"{"web_push": 8030, "notification": {"title": "T", "navigate": "https://a.example/x", "body": "B"}, "app_badge": 2}"#
        let parsed = try #require(try DeclarativePush.parse(Array(good.utf8))?.get())
        #expect(parsed.title == "T" && parsed.body == "B" && parsed.navigate == "https://a.example/x" && parsed.appBadge == 2)
        #expect(DeclarativePush.parse(Array(#"{"hello": 1}"#.utf8)) == nil, "not declarative at all")
        #expect(DeclarativePush.parse(Array("plain text".utf8)) == nil)
        let bad: [(String, String)] = [
            (#"{"web_push": 9001, "notification": {"title": "T", "navigate": "https://a.example"}}"#, "web_push"),
            (#"{"web_push": 8030, "notification": {"navigate": "https://a.example"}}"#, "notification.title"),
            (#"{"web_push": 8030, "notification": {"title": "T"}}"#, "notification.navigate"),
            (#"{"web_push": 8030, "notification": {"title": "T", "navigate": "/relative"}}"#, "notification.navigate"),
            (
                #"{"web_push": 8030, "notification": {"title": "T", "navigate": "https://a.example"}, "app_badge": -1}"#,
                "app_badge"
            ),
            (#"{"web_push": 8030, "notification": {"title": "T", "navigate": "https://a.example"}, "mutable": 1}"#, "mutable"),
            (
                #"{"web_push": 8030, "notification": {"title": "T", "navigate": "https://a.example", "dir": "up"}}"#,
                "notification.dir"
            ),
        ]
        for (text, field) in bad {
            guard case .failure(let problem)? = DeclarativePush.parse(Array(text.utf8)) else {
                Issue.record("accepted \(text)")
                continue
            }
            #expect(problem.field == field, "\(text)")
        }
    }

    @Test("a declarative push is shown with its badge on a Home Screen web app; a Safari page gets no badge")
    func declarativeShown() {
        let text =
            #"{"web_push": 8030, "notification": {"title": "T", "body": "B", "navigate": "https://a.example"}, "app_badge": 5}"#
        let (shown, after) = Self.receive(text, Self.app())
        #expect(shown.shown && shown.title == "T" && shown.body == "B" && shown.badge == 5 && after.badge == 5)
        #expect(shown.webPush?.outcome == .declarative && after.delivered.count == 1)
        let (page, pageAfter) = Self.receive(text, Self.app(kind: .safari))
        #expect(page.shown && page.badge == nil && pageAfter.badge == 0)
        #expect(page.notes.contains { $0.contains("Badging API") })
    }

    @Test("with permission not granted a declarative push is accepted and nothing is shown")
    func notAllowed() {
        let text = #"{"web_push": 8030, "notification": {"title": "T", "navigate": "https://a.example"}}"#
        let (presentation, after) = Self.receive(text, Self.app(permission: .denied))
        #expect(!presentation.shown && presentation.notificationsDisabled && presentation.webPush?.outcome == .notAllowed)
        #expect(after.delivered.isEmpty)
    }

    @Test("an original push goes to the service worker; the third in a row without a notification ends the subscription")
    func penalty() throws {
        var app = Self.app()
        for (index, text) in ["a", "b"].enumerated() {
            let (presentation, after) = Self.receive(text, app, id: "n\(index)")
            #expect(presentation.webPush?.outcome == .serviceWorker && presentation.webPush?.message == text)
            #expect(!presentation.shown && presentation.appNotified)
            app = after
        }
        #expect(app.webApp?.unshownPushes == 2 && app.webApp?.awaitingShow == ["n0", "n1"])
        // Showing one resets the count.
        let (shown, afterShow) = try WebPushReceiver.show(
            title: "B", body: nil, navigate: nil, uniqueID: "s1", at: 2_000, to: app)
        #expect(shown.shown && afterShow.webApp?.unshownPushes == 0 && afterShow.webApp?.awaitingShow == ["n1"])
        app = afterShow
        for id in ["n2", "n3"] { app = Self.receive("x", app, id: id).1 }
        #expect(app.webApp?.isSubscribed == true)
        app = Self.receive("x", app, id: "n4").1
        #expect(app.webApp?.isSubscribed == false && app.webApp?.unsubscribedAt == 1_000)
        let (dropped, _) = Self.receive("x", app, id: "n5")
        #expect(dropped.webPush?.outcome == .unsubscribed)
    }

    @Test("a push that does not decrypt is dropped, saying why")
    func undecryptable() {
        let (presentation, after) = WebPushReceiver.receive(
            opened: .failure(DeviceModelError(.invalid, field: "body", "the tag does not match")), facts: Self.facts,
            uniqueID: "n1", at: 0, to: Self.app())
        #expect(presentation.webPush?.outcome == .undecryptable && !presentation.shown)
        #expect(presentation.notes.first?.contains("the tag does not match") == true && after.delivered.isEmpty)
    }
}

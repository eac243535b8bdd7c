import APNsCore

/// What the emulated browser does with a web push once it tried to open it: a declarative
/// message is shown as Safari shows it, any other message goes to the web app's service worker
/// (whose `showNotification` a test plays with ``show(title:body:navigate:uniqueID:at:to:)``), and
/// a web app that keeps receiving pushes without showing anything loses its subscription. Pure:
/// the same inputs give the same outcome and app.
public enum WebPushReceiver {
    /// Receives the push `uniqueID`, opened to `opened` (or why it did not open), in `app`.
    public static func receive(
        opened: Result<[UInt8], DeviceModelError>, facts: WebPushFacts, uniqueID: String, at millis: Int64, to app: AppModel
    ) -> (Presentation, AppModel) {
        var app = app
        var presentation = Presentation()
        presentation.silent = true
        guard var webApp = app.webApp else {
            presentation.notes = ["no web app holds this subscription any more: the push was dropped"]
            return (presentation, app)
        }
        func record(_ outcome: WebPushDelivery.Outcome, _ detail: String, message: [UInt8]? = nil) {
            var delivery = WebPushDelivery(webApp: webApp, facts: facts, outcome: outcome, detail: detail)
            delivery.message = message.flatMap { String(validating: $0, as: UTF8.self) }
            delivery.messageLength = message?.count
            presentation.webPush = delivery
            presentation.notes.append(detail)
        }
        guard webApp.isSubscribed else {
            record(.unsubscribed, "the subscription ended before the push reached the browser: dropped")
            return (presentation, app)
        }
        let plaintext: [UInt8]
        switch opened {
        case .failure(let why):
            record(
                .undecryptable, "the browser could not decrypt the push with the subscription's keys (RFC 8291): \(why.message)")
            return (presentation, app)
        case .success(let bytes):
            plaintext = bytes
        }
        switch DeclarativePush.parse(plaintext) {
        case .success(let declared)?:
            webApp.unshownPushes = 0
            app.webApp = webApp
            return Self.show(declared, plaintext, facts: facts, uniqueID: uniqueID, at: millis, to: app)
        case .failure(let problem)?:
            presentation.notes.append(
                "not a declarative push message (\(problem.field): \(problem.message)): handled as an original web push")
        case nil:
            break
        }
        // Original Web Push: the service worker's push event, which must show a notification
        // (userVisibleOnly); each push counts as not shown until ``show`` plays one.
        webApp.unshownPushes += 1
        webApp.awaitingShow.append(uniqueID)
        presentation.appNotified = true
        var detail =
            "handed to the service worker's push event; it is expected to call showNotification (POST …/web-apps/<id>/show plays it)"
        if webApp.unshownPushes >= WebApp.unshownPushLimit {
            webApp.unsubscribedAt = millis
            webApp.unsubscribedBecause =
                "\(webApp.unshownPushes) pushes in a row showed no notification: WebKit ended the subscription"
            webApp.awaitingShow = []
            detail += "; \(webApp.unsubscribedBecause ?? "")"
        }
        app.webApp = webApp
        record(.serviceWorker, detail, message: plaintext)
        return (presentation, app)
    }

    /// Shows a declarative message: the alert the phone shows for the app (its permission and
    /// settings apply as to any notification), the badge a Home Screen web app sets.
    static func show(
        _ declared: DeclarativePush, _ plaintext: [UInt8], facts: WebPushFacts, uniqueID: String, at millis: Int64,
        to app: AppModel
    ) -> (Presentation, AppModel) {
        guard let webApp = app.webApp else { return (Presentation(), app) }
        var (presentation, after) = Self.notification(
            title: declared.title, body: declared.body, silent: declared.silent,
            badge: webApp.kind == .homeScreen ? declared.appBadge : nil, uniqueID: uniqueID, at: millis, to: app)
        let shown = webApp.permission == .granted
        var delivery = WebPushDelivery(
            webApp: webApp, facts: facts, outcome: shown ? .declarative : .notAllowed,
            detail: shown
                ? "a declarative push message: Safari showed it without running the service worker"
                    + (declared.mutable ? " (mutable: a service worker's pushnotification event may change it first)" : "")
                : "notifications are not allowed for \(webApp.origin) (permission \(webApp.permission.rawValue)): nothing shown")
        delivery.message = String(validating: plaintext, as: UTF8.self)
        delivery.messageLength = plaintext.count
        delivery.navigate = declared.navigate
        delivery.appBadge = declared.appBadge
        if declared.appBadge != nil, webApp.kind != .homeScreen {
            presentation.notes.append(
                "app_badge is for Home Screen web apps (the Badging API); a Safari page has no icon to badge")
        }
        presentation.webPush = delivery
        if !shown { (presentation, after) = (Self.disallowed(presentation), app) }
        return (presentation, after)
    }

    /// What the service worker's `showNotification(title, {body})` shows, for the push it ran for
    /// (the oldest still waiting); the app afterwards. Refused when the subscription ended or
    /// notifications are not allowed (the promise rejects with a TypeError).
    public static func show(
        title: String, body: String?, navigate: String?, uniqueID: String, at millis: Int64, to app: AppModel
    ) throws(DeviceModelError) -> (Presentation, AppModel) {
        guard var webApp = app.webApp else { throw DeviceModelError(.refused, field: "webApp", "no such web app") }
        guard webApp.permission == .granted else {
            throw DeviceModelError(
                .refused, field: "permission",
                "showNotification rejects with a TypeError: notifications are not allowed for \(webApp.origin) (permission \(webApp.permission.rawValue))"
            )
        }
        guard !title.isEmpty else { throw DeviceModelError(.invalid, field: "title", "a notification needs a title") }
        let answering = webApp.awaitingShow.first
        if !webApp.awaitingShow.isEmpty { webApp.awaitingShow.removeFirst() }
        webApp.unshownPushes = 0
        var app = app
        app.webApp = webApp
        var (presentation, after) = Self.notification(
            title: title, body: body, silent: false, badge: nil, uniqueID: uniqueID, at: millis, to: app)
        var delivery = WebPushDelivery(
            webApp: webApp, facts: WebPushFacts(vapidSubject: nil, urgency: nil, topic: nil), outcome: .serviceWorker,
            detail: answering.map { "the service worker showed a notification for push \($0)" }
                ?? "the service worker showed a notification outside a push event")
        delivery.navigate = navigate
        presentation.webPush = delivery
        presentation.appNotified = true
        return (presentation, after)
    }

    /// A notification with `title` and `body` through the phone's usual presenter, so that the
    /// app's authorization, alert style and Notification Center apply as to any other.
    static func notification(
        title: String, body: String?, silent: Bool, badge: Int?, uniqueID: String, at millis: Int64, to app: AppModel
    ) -> (Presentation, AppModel) {
        var alert: [String: JSONValue] = ["title": .string(title)]
        if let body { alert["body"] = .string(body) }
        var aps: [String: JSONValue] = ["alert": .object(alert)]
        if !silent { aps["sound"] = .string("default") }
        if let badge { aps["badge"] = .number(Double(badge)) }
        var writer = JSONWriter()
        writer.value(.object(["aps": .object(aps)]))
        return Presenter.present(payload: writer.bytes, uniqueID: uniqueID, at: millis, to: app)
    }

    static func disallowed(_ presentation: Presentation) -> Presentation {
        var quiet = Presentation()
        quiet.silent = true
        quiet.notificationsDisabled = true
        quiet.webPush = presentation.webPush
        quiet.notes = presentation.notes + [presentation.webPush?.detail ?? ""]
        return quiet
    }
}

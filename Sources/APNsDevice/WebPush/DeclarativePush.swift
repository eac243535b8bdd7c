import APNsCore

/// A Declarative Web Push message (Safari 18.4): a JSON push the browser shows itself, without
/// running a service worker. WebKit, "Meet Declarative Web Push" (webkit.org/blog/16535), and the
/// W3C Push API's declarative push message (w3c/push-api pull request 385): `"web_push": 8030`, a
/// `notification` with a `title` and a `navigate` URL (both required) and optional `body`, `lang`,
/// `dir`, `tag`, `silent`, `data`; an optional `app_badge` (an integer from 0) and `mutable`
/// (a service worker may change the notification first).
public struct DeclarativePush: Hashable, Sendable {
    public var title: String
    public var body: String?
    public var navigate: String
    public var lang: String?
    public var dir: String?
    public var tag: String?
    public var silent: Bool
    public var appBadge: Int?
    public var mutable: Bool

    /// The message in `bytes`: nil when it is no declarative message at all (not a JSON object
    /// with `web_push`), a failure saying which member is wrong when it tries to be one.
    public static func parse(_ bytes: [UInt8]) -> Result<DeclarativePush, DeviceModelError>? {
        guard case .object(let message)? = JSONValue.parse(bytes), let magic = message["web_push"] else { return nil }
        func problem(_ field: String, _ text: String) -> Result<DeclarativePush, DeviceModelError> {
            .failure(DeviceModelError(.invalid, field: field, text))
        }
        guard magic.number == 8030 else { return problem("web_push", "web_push must be the number 8030") }
        guard case .object(let notification)? = message["notification"] else {
            return problem("notification", "a declarative message needs a notification object")
        }
        guard let title = notification["title"]?.string, !title.isEmpty else {
            return problem("notification.title", "notification.title is required (a non-empty string)")
        }
        guard let navigate = notification["navigate"]?.string, Self.isURL(navigate) else {
            return problem("notification.navigate", "notification.navigate is required: the http(s) URL a tap opens")
        }
        for key in ["body", "lang", "tag"] where notification[key] != nil && notification[key]?.string == nil {
            return problem("notification.\(key)", "notification.\(key) must be a string")
        }
        if let dir = notification["dir"], !["auto", "ltr", "rtl"].contains(dir.string ?? "") {
            return problem("notification.dir", "notification.dir is auto, ltr or rtl")
        }
        var badge: Int?
        if let value = message["app_badge"] {
            guard let number = value.number, number >= 0, number == number.rounded(), number < 9.2e18 else {
                return problem("app_badge", "app_badge is an integer from 0")
            }
            badge = Int(number)
        }
        for (key, value) in [("mutable", message["mutable"]), ("notification.silent", notification["silent"])] {
            guard let value else { continue }
            guard case .bool = value else { return problem(key, "\(key) must be true or false") }
        }
        return .success(
            DeclarativePush(
                title: title, body: notification["body"]?.string, navigate: navigate, lang: notification["lang"]?.string,
                dir: notification["dir"]?.string, tag: notification["tag"]?.string,
                silent: notification["silent"] == .bool(true), appBadge: badge, mutable: message["mutable"] == .bool(true)))
    }

    static func isURL(_ text: String) -> Bool {
        let lowered = text.lowercased()
        guard lowered.hasPrefix("https://") || lowered.hasPrefix("http://") else { return false }
        let rest = lowered.drop(while: { $0 != "/" }).dropFirst(2)
        return !rest.isEmpty && !rest.hasPrefix("/") && !text.contains(" ")
    }
}

import APNsCore

/// Decides how the phone presents a notification, from the payload and the app as it is at that
/// moment. Pure: the same inputs give the same presentation and app.
public enum Presenter {
    /// Presents `payload` (the notification's JSON object) to `app` (of `topic`, which a Focus
    /// may allow); returns the presentation and the app afterwards (its badge, Notification Center).
    public static func present(
        payload: [UInt8], uniqueID: String, at millis: Int64, to app: AppModel, topic: String? = nil,
        communication: Communication? = nil
    ) -> (Presentation, AppModel) {
        let aps = JSONValue.member("aps", ofObjectIn: payload) ?? .object([:])
        var app = app
        var presentation = Presentation()
        if let ended = app.endEphemeral(at: millis) { presentation.notes.append(ended) }
        presentation.communication = Self.communication(communication, app: app, notes: &presentation.notes)
        let content = Self.content(of: aps, app: app, into: &presentation)
        presentation.category = aps["category"]?.string
        presentation.threadID = aps["thread-id"]?.string
        presentation.targetContentID = aps["target-content-id"]?.string
        Self.summaryArgument(of: aps, app: app, into: &presentation)
        let contentAvailable = aps["content-available"]?.isOne == true

        guard content.hasAlert || content.sound != nil || content.badge != nil else {
            return Self.silent(contentAvailable: contentAvailable, at: millis, app: app, presentation)
        }
        let foreground = app.appState == .foreground
        // In the foreground the app is told and the system shows only what the app lets it;
        // elsewhere an app asking for background fetch is woken as well.
        presentation.appNotified = foreground || contentAvailable
        var allowed = Self.allowed(app, foreground: foreground)
        presentation.notificationsDisabled = app.authorization.status == .denied
        let (sound, quiet) = Self.applyLevel(
            aps, app: app, topic: topic, at: millis, sound: content.sound, allowed: &allowed, into: &presentation)
        if content.hasAlert {
            if let reason = allowed.alert {
                presentation.suppressed.append(Suppression(what: "alert", reason: reason))
            } else {
                Self.show(aps, app: app, foreground: foreground, quiet: quiet, into: &presentation)
            }
        }
        if let sound {
            if let reason = allowed.sound {
                presentation.suppressed.append(Suppression(what: "sound", reason: reason))
            } else {
                presentation.sound = Self.resolve(sound: sound, app: app, notes: &presentation.notes)
            }
        }
        if let badge = content.badge {
            if let reason = allowed.badge {
                presentation.suppressed.append(Suppression(what: "badge", reason: reason))
            } else {
                presentation.badge = badge
                app.badge = badge
            }
        }
        if presentation.shown {
            app.addDelivered(DeliveredNotification(uniqueID: uniqueID, presentedAt: millis, presentation: presentation))
        } else {
            (presentation.title, presentation.subtitle, presentation.body) = content.texts
        }
        return (presentation, app)
    }

    /// Nothing for the user: the app is woken to fetch (`content-available`, unless force-quit,
    /// Background App Refresh off or over the phone's budget: ``BackgroundPushes``), or told if
    /// it is in the foreground; nothing else happens.
    private static func silent(
        contentAvailable: Bool, at millis: Int64, app: AppModel, _ presentation: Presentation
    ) -> (Presentation, AppModel) {
        var (app, presentation) = (app, presentation)
        presentation.silent = true
        if contentAvailable && app.appState != .foreground, let why = app.backgroundPushes.wake(at: millis) {
            presentation.notDelivered = why
            return (presentation, app)
        }
        presentation.appNotified = contentAvailable || app.appState == .foreground
        if !presentation.appNotified {
            presentation.notes.append("nothing to show, play or badge, and no content-available to wake the app")
        }
        return (presentation, app)
    }

    /// The alert on screen: a banner or an alert as the user chose (in the foreground, as the app
    /// lets it), or Notification Center only when delivered quietly; its buttons.
    private static func show(
        _ aps: JSONValue, app: AppModel, foreground: Bool, quiet: QuietDelivery?, into presentation: inout Presentation
    ) {
        presentation.shown = true
        presentation.style = foreground ? (app.foregroundOptions.banner ? .banner : .none) : PresentationStyle(app.alertStyle)
        if let quiet { (presentation.style, presentation.deliveredQuietly, presentation.heldBy) = (.none, true, quiet.heldBy) }
        Self.offerActions(aps: aps, app: app, into: &presentation)
    }

    /// What the payload asks for, its texts localised into `presentation`.
    static func content(
        of aps: JSONValue, app: AppModel, into presentation: inout Presentation
    ) -> (hasAlert: Bool, sound: String?, badge: Int?, texts: (String?, String?, String?)) {
        let localizer = Localizer(strings: app.strings, language: app.language)
        var texts: (String?, String?, String?) = (nil, nil, nil)
        switch aps["alert"] {
        case .string(let body):
            texts.2 = body
        case .object:
            let alert = aps["alert"] ?? .null
            func text(_ plain: String, _ key: String, _ args: String, _ field: String) -> String? {
                if let key = alert[key]?.string {
                    let resolved = localizer.text(key: key, arguments: Self.strings(alert[args]), field: field)
                    presentation.localized.append(resolved.localized)
                    return resolved.text
                }
                return alert[plain]?.string
            }
            texts = (
                text("title", "title-loc-key", "title-loc-args", "title"),
                text("subtitle", "subtitle-loc-key", "subtitle-loc-args", "subtitle"),
                text("body", "loc-key", "loc-args", "body")
            )
        default:
            break
        }
        let hasAlert = [texts.0, texts.1, texts.2].contains { !($0 ?? "").isEmpty }
        if hasAlert { (presentation.title, presentation.subtitle, presentation.body) = texts }
        let sound: String? =
            switch aps["sound"] {
            case .string(let name) where !name.isEmpty: name
            case .object: aps["sound"]?["name"]?.string
            default: nil
            }
        let badge = aps["badge"]?.number.flatMap { $0 >= 0 && $0 == $0.rounded() && $0 < 1e9 ? Int($0) : nil }
        return (hasAlert, sound, badge, texts)
    }

    /// Why each kind of interaction is held back (nil when it is allowed).
    private static func allowed(_ app: AppModel, foreground: Bool) -> (alert: String?, sound: String?, badge: String?) {
        let authorization = app.authorization
        func reason(_ allowed: Bool, _ name: String, _ option: String, _ foregroundAllows: Bool) -> String? {
            switch authorization.status {
            case .notDetermined: return "the app has not asked for authorization, so the user has not allowed \(name)"
            case .denied: return "the user denied the app notifications"
            case .authorized where !allowed, .provisional where !allowed, .ephemeral where !allowed:
                return "the user does not allow \(name) for this app"
            case .authorized, .provisional, .ephemeral:
                if foreground && !foregroundAllows {
                    return "the app is in the foreground and its presentation options do not include \(option)"
                }
                return nil
            }
        }
        let options = app.foregroundOptions
        return (
            reason(authorization.alert, "alerts", "banner or list", options.banner || options.list),
            reason(authorization.sound, "sounds", "sound", options.sound),
            reason(authorization.badge, "badges", "badge", options.badge)
        )
    }

    /// The sound that plays for `name`: the default sound, or a bundled one under 30 seconds;
    /// anything else plays the default sound instead, with the reason in `notes`.
    static func resolve(sound name: String, app: AppModel, notes: inout [String]) -> String {
        guard name != "default" else { return "default" }
        guard let seconds = app.sounds[name] else {
            notes.append("sound \(name) is not bundled with the app, so the default sound plays")
            return "default"
        }
        guard seconds < Self.longestCustomSound else {
            notes.append("sound \(name) lasts \(seconds) s; custom sounds must be under 30 s, so the default sound plays")
            return "default"
        }
        return name
    }

    /// Custom sounds must last less than this many seconds.
    public static let longestCustomSound = 30.0

    private static func offerActions(aps: JSONValue, app: AppModel, into presentation: inout Presentation) {
        guard let name = presentation.category else { return }
        guard let category = app.category(name) else {
            presentation.notes.append("category \(name) is not registered by the app, so no actions are offered")
            return
        }
        presentation.actions = category.defaultContextActions
        presentation.minimalActions = category.minimalContextActions
    }

    private static func strings(_ value: JSONValue?) -> [String] {
        guard case .array(let elements) = value else { return [] }
        return elements.map { element in
            switch element {
            case .string(let text): text
            case .number(let number): JSONWriter.text(of: number)
            case .bool(let flag): flag ? "true" : "false"
            default: ""
            }
        }
    }
}

extension PresentationStyle {
    init(_ style: AlertStyle) {
        switch style {
        case .alert: self = .alert
        case .banner: self = .banner
        case .none: self = .none
        }
    }
}

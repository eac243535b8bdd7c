/// What the user did with a notification on screen, and what the app was told.
public struct UserResponse: Hashable, Sendable, Codable {
    public var uniqueID: String
    /// `default` (a tap on the notification), `dismiss`, or a custom action's identifier.
    public var action: String
    /// What the user typed, for a text-input action.
    public var text: String?
    public var context: ActionContext
    /// Whether the app is told (a dismissal only when its category asks for it).
    public var reported: Bool
    /// Whether the response launched the app (it was not running).
    public var launched: Bool
    /// The app's state after the response.
    public var appState: AppState
    /// Milliseconds since the UNIX epoch.
    public var at: Int64
    /// The notification's `target-content-id`, handed to the app with a tap or a foreground
    /// action (`UNNotificationContent.targetContentIdentifier`: the window or content to bring
    /// forward); nil when it had none, or the response does not open the app.
    public var targetContentID: String?

    private enum CodingKeys: String, CodingKey {
        case uniqueID = "uniqueId"
        case action, text, context, reported, launched, appState, at
        case targetContentID = "targetContentId"
    }

    public init(
        uniqueID: String, action: String, text: String?, context: ActionContext, reported: Bool, launched: Bool,
        appState: AppState, at: Int64
    ) {
        self.uniqueID = uniqueID
        self.action = action
        self.text = text
        self.context = context
        self.reported = reported
        self.launched = launched
        self.appState = appState
        self.at = at
    }

    /// The user responds to notification `uniqueID` in Notification Center or on screen. Refused
    /// (`notOffered`) when it is not there or the action is not a button of `context` (by default
    /// the context it was shown in); a text goes only with a text-input action. Any response takes
    /// the notification off the screen and out of Notification Center.
    public static func respond(
        to uniqueID: String,
        action: String,
        text: String?,
        context: ActionContext?,
        at millis: Int64,
        app: AppModel
    ) throws(DeviceModelError) -> (UserResponse, AppModel) {
        guard let delivered = app.delivered.first(where: { $0.uniqueID == uniqueID }) else {
            throw DeviceModelError(
                .notOffered, field: "uniqueId",
                "notification \(uniqueID) is not on screen or in Notification Center (never shown, already acted on, or removed)")
        }
        let presentation = delivered.presentation
        let context = context ?? (presentation.style == .alert ? .alert : .banner)
        var app = app
        let before = app.appState
        var reported = true
        switch action {
        case NotificationAction.defaultIdentifier:
            guard text == nil else {
                throw DeviceModelError(
                    .notOffered, field: "text", "a tap on the notification carries no text; text goes with a text-input action")
            }
            app.appState = .foreground
        case NotificationAction.dismissIdentifier:
            guard text == nil else { throw DeviceModelError(.notOffered, field: "text", "a dismissal carries no text") }
            reported = app.category(presentation.category)?.customDismissAction == true
        default:
            let offered = presentation.actions(in: context)
            guard let chosen = offered.first(where: { $0.identifier == action }) else {
                let names = offered.map(\.identifier)
                throw DeviceModelError(
                    .notOffered, field: "action",
                    "action \(action) is not offered in the \(context.rawValue) context of this notification (offered: \(names.isEmpty ? "none" : names.joined(separator: ", ")))"
                )
            }
            try Self.check(text, for: chosen)
            // A foreground action opens the app; another runs it in the background if it was not.
            if chosen.foreground {
                app.appState = .foreground
            } else if app.appState == .notRunning {
                app.appState = .background
            }
        }
        app.removeDelivered(uniqueID)
        var response = UserResponse(
            uniqueID: uniqueID, action: action, text: text, context: context,
            reported: reported, launched: before == .notRunning && app.appState != .notRunning, appState: app.appState, at: millis
        )
        if app.appState == .foreground, action != NotificationAction.dismissIdentifier {
            response.targetContentID = presentation.targetContentID
        }
        return (response, app)
    }

    /// A text goes with a text-input action, and only with one.
    private static func check(_ text: String?, for chosen: NotificationAction) throws(DeviceModelError) {
        if chosen.textInput == nil, text != nil {
            throw DeviceModelError(
                .notOffered, field: "text", "action \(chosen.identifier) is not a text-input action, so it takes no text")
        }
        if chosen.textInput != nil, text == nil {
            throw DeviceModelError(
                .invalid, field: "text", "action \(chosen.identifier) is a text-input action: give the text the user typed")
        }
    }
}

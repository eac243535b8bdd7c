import APNsDevice

/// The body of `POST /api/v1/notifications/<uniqueId>/respond`:
/// `{"action": "default" | "dismiss" | "<action id>", "text"?, "context"?: "banner" | "alert"}`.
public struct RespondDocument: Decodable {
    public var action: String
    public var text: String?
    public var context: ActionContext?

    public static let example = #"{"action": "default"}"#

    private enum CodingKeys: String, CodingKey, CaseIterable { case action, text, context }

    public init(from decoder: any Decoder) throws {
        try decoder.refuseUnknownKeys(CodingKeys.self, in: "a response")
        let container = try decoder.container(keyedBy: CodingKeys.self)
        // UserNotifications' own names for a tap and a dismissal are taken too.
        switch try container.decode(String.self, forKey: .action) {
        case "com.apple.UNNotificationDefaultActionIdentifier": self.action = NotificationAction.defaultIdentifier
        case "com.apple.UNNotificationDismissActionIdentifier": self.action = NotificationAction.dismissIdentifier
        case let action: self.action = action
        }
        guard !self.action.isEmpty else {
            throw InspectionError(.badDocument, field: "action", "action is default, dismiss or an action's identifier")
        }
        self.text = try container.decodeIfPresent(String.self, forKey: .text)
        if let name = try container.decodeIfPresent(String.self, forKey: .context) {
            guard let context = ActionContext(rawValue: name) else {
                throw InspectionError(.badDocument, field: "context", "context \(name) is not banner or alert")
            }
            self.context = context
        }
    }
}

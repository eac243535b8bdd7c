/// A type of notification an app registers, with the actions the user may take on it
/// (UserNotifications' `UNNotificationCategory`).
public struct NotificationCategory: Hashable, Sendable, Codable {
    public var identifier: String
    /// In the order the buttons are shown; the default context shows the first four.
    public var actions: [NotificationAction]
    /// The actions for the minimal context (banners, lock screen, Notification Center), by
    /// identifier; nil means the first two of `actions`.
    public var minimalActions: [String]?
    /// Whether the app is told when the user dismisses the notification.
    public var customDismissAction: Bool

    public init(
        identifier: String, actions: [NotificationAction] = [], minimalActions: [String]? = nil, customDismissAction: Bool = false
    ) {
        self.identifier = identifier
        self.actions = actions
        self.minimalActions = minimalActions
        self.customDismissAction = customDismissAction
    }

    /// How many actions each context shows.
    public static let defaultContextLimit = 4
    public static let minimalContextLimit = 2

    /// The actions shown in the default context (an alert): the first four.
    public var defaultContextActions: [NotificationAction] { Array(self.actions.prefix(Self.defaultContextLimit)) }

    /// The actions shown in the minimal context: the explicit list, else the first two.
    public var minimalContextActions: [NotificationAction] {
        guard let minimal = self.minimalActions else { return Array(self.actions.prefix(Self.minimalContextLimit)) }
        return Array(minimal.compactMap { id in self.actions.first { $0.identifier == id } }.prefix(Self.minimalContextLimit))
    }

    /// Refuses a category that cannot be: no identifier, two actions with one identifier, an
    /// action without identifier or title, a minimal-context entry naming no action.
    public func validate(at field: String) throws(DeviceModelError) {
        guard !self.identifier.isEmpty else {
            throw DeviceModelError(.invalid, field: "\(field).identifier", "a category needs an identifier")
        }
        var seen: Set<String> = []
        for (index, action) in self.actions.enumerated() {
            let at = "\(field).actions[\(index)]"
            guard !action.identifier.isEmpty else {
                throw DeviceModelError(.invalid, field: "\(at).identifier", "an action needs an identifier")
            }
            guard !action.title.isEmpty else {
                throw DeviceModelError(
                    .invalid, field: "\(at).title", "action \(action.identifier) needs a title (its button's text)")
            }
            guard action.identifier != NotificationAction.defaultIdentifier,
                action.identifier != NotificationAction.dismissIdentifier
            else {
                throw DeviceModelError(
                    .invalid, field: "\(at).identifier",
                    "\(action.identifier) is the name of the system's own response; choose another identifier")
            }
            guard seen.insert(action.identifier).inserted else {
                throw DeviceModelError(
                    .invalid, field: "\(at).identifier", "category \(self.identifier) has two actions named \(action.identifier)")
            }
        }
        for (index, name) in (self.minimalActions ?? []).enumerated() where !seen.contains(name) {
            throw DeviceModelError(
                .invalid, field: "\(field).minimalActions[\(index)]",
                "category \(self.identifier) has no action \(name) to show in the minimal context")
        }
    }

    /// `intentIdentifiers` (SiriKit's, which the phone does not use) and `customDismissAction` as a
    /// flag are taken too, as UserNotifications spells them.
    private enum CodingKeys: String, CodingKey, CaseIterable {
        case identifier, actions, minimalActions, options, intentIdentifiers, customDismissAction
    }

    public init(from decoder: any Decoder) throws {
        try decoder.refuseUnknown(CodingKeys.self, in: "a category")
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.identifier = try container.decode(String.self, forKey: .identifier)
        self.actions = try container.decodeIfPresent([NotificationAction].self, forKey: .actions) ?? []
        self.minimalActions = try container.decodeIfPresent([String].self, forKey: .minimalActions)
        _ = try container.decodeIfPresent([String].self, forKey: .intentIdentifiers)
        let options = try container.decodeIfPresent([String].self, forKey: .options) ?? []
        for option in options where option != "customDismissAction" {
            throw DeviceModelError(
                .invalid, field: decoder.fieldPath + ".options", "\(option) is not a category option; use customDismissAction")
        }
        self.customDismissAction =
            try options.contains("customDismissAction")
            || container.decodeIfPresent(Bool.self, forKey: .customDismissAction) == true
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(self.identifier, forKey: .identifier)
        try container.encode(self.actions, forKey: .actions)
        try container.encodeIfPresent(self.minimalActions, forKey: .minimalActions)
        try container.encode(self.customDismissAction ? ["customDismissAction"] : [], forKey: .options)
    }
}

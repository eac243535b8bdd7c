/// A button of a category (`UNNotificationAction`, or `UNTextInputNotificationAction` when it
/// has `textInput`).
public struct NotificationAction: Hashable, Sendable, Codable {
    public var identifier: String
    public var title: String
    /// Opens the app in the foreground when chosen.
    public var foreground: Bool
    public var destructive: Bool
    public var authenticationRequired: Bool
    /// Set for an action that lets the user type a reply.
    public var textInput: TextInput?

    public struct TextInput: Hashable, Sendable, Codable {
        public var buttonTitle: String
        public var placeholder: String

        public init(buttonTitle: String, placeholder: String = "") {
            self.buttonTitle = buttonTitle
            self.placeholder = placeholder
        }

        private enum CodingKeys: String, CodingKey, CaseIterable { case buttonTitle, placeholder }

        public init(from decoder: any Decoder) throws {
            try decoder.refuseUnknown(CodingKeys.self, in: "textInput")
            let container = try decoder.container(keyedBy: CodingKeys.self)
            self.buttonTitle = try container.decodeIfPresent(String.self, forKey: .buttonTitle) ?? "Send"
            self.placeholder = try container.decodeIfPresent(String.self, forKey: .placeholder) ?? ""
        }
    }

    /// The response names the system uses for a tap and a dismissal (UserNotifications'
    /// default and dismiss action identifiers); no custom action may take them.
    public static let defaultIdentifier = "default"
    public static let dismissIdentifier = "dismiss"

    public init(
        identifier: String, title: String, foreground: Bool = false, destructive: Bool = false,
        authenticationRequired: Bool = false, textInput: TextInput? = nil
    ) {
        self.identifier = identifier
        self.title = title
        self.foreground = foreground
        self.destructive = destructive
        self.authenticationRequired = authenticationRequired
        self.textInput = textInput
    }

    /// The options may also be flags (`"foreground": true`), and a text-input action may be
    /// given as UserNotifications spells it (`textInputButtonTitle`, `textInputPlaceholder`).
    private enum CodingKeys: String, CodingKey, CaseIterable {
        case identifier, title, options, textInput, foreground, destructive, authenticationRequired, textInputButtonTitle,
            textInputPlaceholder
    }
    private static let optionNames = ["foreground", "destructive", "authenticationRequired"]

    public init(from decoder: any Decoder) throws {
        try decoder.refuseUnknown(CodingKeys.self, in: "an action")
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.identifier = try container.decode(String.self, forKey: .identifier)
        self.title = try container.decode(String.self, forKey: .title)
        let options = try container.decodeIfPresent([String].self, forKey: .options) ?? []
        for option in options where !Self.optionNames.contains(option) {
            throw DeviceModelError(
                .invalid, field: decoder.fieldPath + ".options",
                "\(option) is not an action option; use \(Self.optionNames.joined(separator: ", "))")
        }
        func flag(_ key: CodingKeys) throws -> Bool {
            try options.contains(key.stringValue) || container.decodeIfPresent(Bool.self, forKey: key) == true
        }
        self.foreground = try flag(.foreground)
        self.destructive = try flag(.destructive)
        self.authenticationRequired = try flag(.authenticationRequired)
        self.textInput = try container.decodeIfPresent(TextInput.self, forKey: .textInput)
        let buttonTitle = try container.decodeIfPresent(String.self, forKey: .textInputButtonTitle)
        let placeholder = try container.decodeIfPresent(String.self, forKey: .textInputPlaceholder)
        if self.textInput == nil, buttonTitle != nil || placeholder != nil {
            self.textInput = TextInput(buttonTitle: buttonTitle ?? "Send", placeholder: placeholder ?? "")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(self.identifier, forKey: .identifier)
        try container.encode(self.title, forKey: .title)
        let options = zip(Self.optionNames, [self.foreground, self.destructive, self.authenticationRequired]).filter(\.1).map(\.0)
        try container.encode(options, forKey: .options)
        try container.encodeIfPresent(self.textInput, forKey: .textInput)
    }
}

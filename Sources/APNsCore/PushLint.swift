/// Something APNs accepts but a device would not show as the provider probably meant, or would
/// throttle: the emulator accepts the push as APNs does, and says so.
public struct PushWarning: Hashable, Sendable, CustomStringConvertible {
    /// A short stable name, e.g. `background-priority` (the metric's label).
    public let code: String
    /// What is wrong and what to send instead, for people.
    public let message: String

    public init(_ code: String, _ message: String) {
        self.code = code
        self.message = message
    }

    /// `code: message`, as the `apns-emulator-warning` header and the journal show it.
    public var description: String { "\(self.code): \(self.message)" }
}

/// The lint of an accepted notification: a pure function of it, so the journal can show the same
/// warnings the provider got in `apns-emulator-warning`.
public enum PushLint {
    /// The topic suffix each push type's topic carries (Apple's "Sending notification requests
    /// to APNs", `apns-topic`).
    public static let topicSuffixes: [PushType: String] = [
        .voip: ".voip", .complication: ".complication", .fileprovider: ".pushkit.fileprovider",
        .liveactivity: ".push-type.liveactivity", .location: ".location-query", .pushtotalk: ".voip-ptt",
        .widgets: ".push-type.widgets",
    ]

    public static func warnings(for notification: Notification) -> [PushWarning] {
        var warnings: [PushWarning] = []
        let type = notification.pushType
        if type == .background && notification.priority == .immediate {
            warnings.append(.init("background-priority", "a background push at priority 10 is accepted, but devices may not wake the app for it; send apns-priority 5"))
        }
        if let suffix = Self.topicSuffixes[type], let topic = notification.topic, !topic.hasSuffix(suffix) {
            warnings.append(.init("topic-suffix", "a \(type) push goes to the topic <bundle id>\(suffix); \(topic) is not one, so no \(type) token belongs to it"))
        }
        guard case .object(let aps)? = JSONValue.parse(notification.payload)?["aps"] else {
            if type == .alert { warnings.append(.init("alert-without-alert", "an alert push without an aps dictionary shows nothing")) }
            return warnings
        }
        warnings += Self.lint(aps: aps, type: type, priority: notification.priority)
        return warnings
    }

    static func lint(aps: [String: JSONValue], type: PushType, priority: Priority) -> [PushWarning] {
        var warnings: [PushWarning] = []
        let alert = aps["alert"].map(Self.shows) ?? false
        let contentAvailable = aps["content-available"]?.isOne ?? false
        if type == .alert && !alert && aps["sound"] == nil && aps["badge"] == nil {
            warnings.append(
                contentAvailable
                    ? .init("alert-without-alert", "a push with only content-available is a background push: send apns-push-type background and apns-priority 5")
                    : .init("alert-without-alert", "an alert push with no alert, sound or badge shows nothing")
            )
        }
        if contentAvailable && alert && priority != .immediate {
            warnings.append(.init("alert-priority", "an alert at priority \(priority.rawValue) may be delayed or grouped; alerts go at priority 10"))
        }
        if aps["mutable-content"]?.isOne == true && !alert {
            warnings.append(.init("mutable-content-without-alert", "mutable-content without an alert: the notification service extension only runs for alerts"))
        }
        if type == .liveactivity {
            let missing = ["timestamp", "event"].filter { aps[$0] == nil }
            if !missing.isEmpty {
                warnings.append(.init("liveactivity-fields", "a Live Activity push needs \(missing.joined(separator: " and ")) in aps; the device ignores it without"))
            }
        }
        if let badge = aps["badge"], !Self.isWholeNumber(badge) {
            warnings.append(.init("badge-not-number", "badge must be a whole number; the device ignores \(Self.describe(badge))"))
        }
        if let name = aps["sound"]?.string ?? aps["sound"]?["name"]?.string, name != "default", !name.contains(".") {
            warnings.append(.init("sound-extension", "sound \"\(Self.short(name))\" has no file extension; the device plays the default sound unless the app bundles a file of exactly that name"))
        }
        return warnings
    }

    /// Whether an `alert` value shows something: a non-empty string, or a dictionary with a
    /// title, subtitle, body or one of their localization keys.
    static func shows(_ alert: JSONValue) -> Bool {
        switch alert {
        case .string(let text): return !text.isEmpty
        case .object(let members):
            return ["title", "subtitle", "body", "title-loc-key", "subtitle-loc-key", "loc-key"].contains { members[$0] != nil }
        default: return false
        }
    }

    static func isWholeNumber(_ value: JSONValue) -> Bool {
        guard let number = value.number else { return false }
        return number >= 0 && number == number.rounded(.towardZero)
    }

    /// Payload text quoted in a warning, cut to 40 characters.
    static func short(_ text: String) -> String {
        text.count > 40 ? String(text.prefix(40)) + "..." : text
    }

    static func describe(_ value: JSONValue) -> String {
        switch value {
        case .string(let text): return "the string \"\(Self.short(text))\""
        case .number(let number): return "\(number)"
        case .bool(let flag): return "\(flag)"
        case .null: return "null"
        case .array: return "an array"
        case .object: return "an object"
        }
    }
}

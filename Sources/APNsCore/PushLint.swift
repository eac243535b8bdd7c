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
        self.warnings(for: notification, aps: APSFacts(payload: notification.payload))
    }

    /// The warnings, with the payload's `aps` already read (``JSONObjectValidator/scan(_:)``
    /// gathers it while validating, so the accept path reads the payload once).
    public static func warnings(for notification: Notification, aps: APSFacts?) -> [PushWarning] {
        var warnings: [PushWarning] = []
        let type = notification.pushType
        if type == .background && notification.priority == .immediate {
            warnings.append(.init("background-priority", "a background push at priority 10 is accepted, but devices may not wake the app for it; send apns-priority 5"))
        }
        if let suffix = Self.topicSuffixes[type], let topic = notification.topic, !topic.hasSuffix(suffix) {
            warnings.append(.init("topic-suffix", "a \(type) push goes to the topic <bundle id>\(suffix); \(topic) is not one, so no \(type) token belongs to it"))
        }
        guard let aps else {
            if type == .alert { warnings.append(.init("alert-without-alert", "an alert push without an aps dictionary shows nothing")) }
            return warnings
        }
        warnings += Self.lint(aps, type: type, priority: notification.priority)
        return warnings
    }

    static func lint(_ aps: APSFacts, type: PushType, priority: Priority) -> [PushWarning] {
        var warnings: [PushWarning] = []
        if type == .alert && !aps.alertShows && !aps.hasSound && !aps.hasBadge {
            warnings.append(
                aps.contentAvailable
                    ? .init("alert-without-alert", "a push with only content-available is a background push: send apns-push-type background and apns-priority 5")
                    : .init("alert-without-alert", "an alert push with no alert, sound or badge shows nothing")
            )
        }
        if aps.contentAvailable && aps.alertShows && priority != .immediate {
            warnings.append(.init("alert-priority", "an alert at priority \(priority.rawValue) may be delayed or grouped; alerts go at priority 10"))
        }
        if aps.mutableContent && !aps.alertShows {
            warnings.append(.init("mutable-content-without-alert", "mutable-content without an alert: the notification service extension only runs for alerts"))
        }
        if type == .liveactivity {
            let missing = [("timestamp", aps.hasTimestamp), ("event", aps.hasEvent)].filter { !$0.1 }.map(\.0)
            if !missing.isEmpty {
                warnings.append(.init("liveactivity-fields", "a Live Activity push needs \(missing.joined(separator: " and ")) in aps; the device ignores it without"))
            }
        }
        if let badge = aps.badBadge {
            warnings.append(.init("badge-not-number", "badge must be a whole number; the device ignores \(Self.describe(badge))"))
        }
        if let name = aps.soundWithoutExtension {
            warnings.append(.init("sound-extension", "sound \"\(Self.short(name))\" has no file extension; the device plays the default sound unless the app bundles a file of exactly that name"))
        }
        return warnings
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

/// What the `aps` dictionary of a payload holds, as far as ``PushLint`` asks: read in one pass
/// over the bytes, building nothing but what a warning quotes (the accept path runs it).
public struct APSFacts: Sendable {
    var alertShows = false
    var hasSound = false
    var hasBadge = false
    var contentAvailable = false
    var mutableContent = false
    var hasTimestamp = false
    var hasEvent = false
    /// A badge that is not a whole number.
    var badBadge: JSONValue?
    /// A sound name other than `default` with no file extension.
    var soundWithoutExtension: String?

    /// The `alert` members that make an alert show something.
    static let shownAlertKeys: [StaticString] = ["title", "subtitle", "body", "title-loc-key", "subtitle-loc-key", "loc-key"]

    /// The members of `aps` the lint reads.
    enum Member {
        case alert, sound, badge, contentAvailable, mutableContent, timestamp, event, other

        init(_ name: UnsafeBufferPointer<UInt8>) {
            switch name.count {
            case 5 where APSFacts.equal(name, "alert"): self = .alert
            case 5 where APSFacts.equal(name, "sound"): self = .sound
            case 5 where APSFacts.equal(name, "badge"): self = .badge
            case 5 where APSFacts.equal(name, "event"): self = .event
            case 9 where APSFacts.equal(name, "timestamp"): self = .timestamp
            case 15 where APSFacts.equal(name, "mutable-content"): self = .mutableContent
            case 17 where APSFacts.equal(name, "content-available"): self = .contentAvailable
            default: self = .other
            }
        }
    }

    static func equal(_ bytes: UnsafeBufferPointer<UInt8>, _ text: StaticString) -> Bool {
        bytes.count == text.utf8CodeUnitCount && bytes.elementsEqual(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    init() {}

    /// One member of `aps`: its value's bytes as they stand in the payload (a dictionary's
    /// members have been read already, through ``JSONObjectValidator``'s roles).
    mutating func read(_ member: Member, _ value: UnsafeBufferPointer<UInt8>) {
        let quoted = value.first == UInt8(ascii: "\"")
        switch member {
        case .alert:
            if quoted { self.alertShows = value.count > 2 }
        case .sound:
            self.hasSound = true
            if quoted { self.check(sound: UnsafeBufferPointer(rebasing: value.dropFirst().dropLast())) }
        case .badge:
            self.hasBadge = true
            if !value.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) {
                let parsed = JSONValue.parse(Array(value))
                if let parsed, PushLint.isWholeNumber(parsed) { return }
                self.badBadge = parsed ?? .null
            }
        case .contentAvailable:
            self.contentAvailable = JSONValue.parse(Array(value))?.isOne ?? false
        case .mutableContent:
            self.mutableContent = JSONValue.parse(Array(value))?.isOne ?? false
        case .timestamp:
            self.hasTimestamp = true
        case .event:
            self.hasEvent = true
        case .other:
            break
        }
    }

    /// The `name` of a sound dictionary.
    mutating func readSoundName(_ value: UnsafeBufferPointer<UInt8>) {
        guard value.first == UInt8(ascii: "\"") else { return }
        self.check(sound: UnsafeBufferPointer(rebasing: value.dropFirst().dropLast()))
    }

    private mutating func check(sound: UnsafeBufferPointer<UInt8>) {
        if !APSFacts.equal(sound, "default") && !sound.contains(UInt8(ascii: ".")) {
            self.soundWithoutExtension = String(decoding: sound, as: UTF8.self)
        }
    }

    /// Nil when the payload has no `aps` object (or is not one JSON object).
    init?(payload: [UInt8]) {
        guard let facts = JSONObjectValidator.scan(payload).aps else { return nil }
        self = facts
    }
}

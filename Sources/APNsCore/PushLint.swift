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
        guard let aps = APSFacts(payload: notification.payload) else {
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
struct APSFacts {
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
    static let shownAlertKeys = ["title", "subtitle", "body", "title-loc-key", "subtitle-loc-key", "loc-key"]

    private init() {}

    /// Nil when the payload has no `aps` object.
    init?(payload: [UInt8]) {
        var reader = JSONValue.Reader(bytes: payload)
        guard reader.seek("aps"), reader.peek() == UInt8(ascii: "{") else { return nil }
        var facts = APSFacts()
        guard reader.members({ name, value in facts.read(name, &value) }) else { return nil }
        self = facts
    }

    private mutating func read(_ name: ArraySlice<UInt8>, _ reader: inout JSONValue.Reader) -> Bool {
        func named(_ text: StaticString) -> Bool {
            name.count == text.utf8CodeUnitCount && name.elementsEqual(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
        }
        if named("alert") { return self.readAlert(&reader) }
        if named("sound") { return self.readSound(&reader) }
        if named("badge") {
            self.hasBadge = true
            let start = reader.offset
            guard reader.skip(depth: 2) else { return false }
            let bytes = reader.bytes[start..<reader.offset].drop { [0x20, 0x0A, 0x0D, 0x09].contains($0) }
            if !bytes.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) {
                let value = JSONValue.parse(Array(bytes))
                if let value, PushLint.isWholeNumber(value) { return true }
                self.badBadge = value ?? .null
            }
            return true
        }
        if named("content-available") || named("mutable-content") {
            let start = reader.offset
            guard reader.skip(depth: 2) else { return false }
            let one = JSONValue.parse(Array(reader.bytes[start..<reader.offset]))?.isOne ?? false
            if named("content-available") { self.contentAvailable = one } else { self.mutableContent = one }
            return true
        }
        if named("timestamp") { self.hasTimestamp = true }
        if named("event") { self.hasEvent = true }
        return reader.skip(depth: 2)
    }

    private mutating func readAlert(_ reader: inout JSONValue.Reader) -> Bool {
        switch reader.peek() {
        case UInt8(ascii: "\""):
            guard let text = reader.stringBytes() else { return false }
            self.alertShows = !text.isEmpty
            return true
        case UInt8(ascii: "{"):
            return reader.members { name, value in
                let shown = Self.shownAlertKeys.contains { name.elementsEqual($0.utf8) }
                if shown { self.alertShows = true }
                return value.skip(depth: 3)
            }
        default:
            return reader.skip(depth: 2)
        }
    }

    private mutating func readSound(_ reader: inout JSONValue.Reader) -> Bool {
        self.hasSound = true
        func check(_ sound: ArraySlice<UInt8>) {
            if !sound.elementsEqual("default".utf8) && !sound.contains(UInt8(ascii: ".")) {
                self.soundWithoutExtension = String(decoding: sound, as: UTF8.self)
            }
        }
        switch reader.peek() {
        case UInt8(ascii: "\""):
            guard let sound = reader.stringBytes() else { return false }
            check(sound)
            return true
        case UInt8(ascii: "{"):
            return reader.members { name, value in
                guard name.elementsEqual("name".utf8), value.peek() == UInt8(ascii: "\"") else { return value.skip(depth: 3) }
                guard let sound = value.stringBytes() else { return false }
                check(sound)
                return true
            }
        default:
            return reader.skip(depth: 2)
        }
    }
}

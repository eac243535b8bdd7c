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
    /// The first `aps` member no Apple platform reads (`badg`), cut to 40 characters.
    var unknownMember: String?
    /// An `interruption-level` that is not passive, active, time-sensitive or critical.
    var badInterruptionLevel: JSONValue?
    /// A `relevance-score` that is not a number from 0 to 1.
    var badRelevanceScore: JSONValue?
    /// A critical sound's `volume` that is not a number from 0 to 1.
    var badVolume: JSONValue?

    /// Every `aps` member Apple documents (the payload key reference, Live Activities, Safari's
    /// `url-args`): anything else is ignored by the device, most often a misspelt one.
    static let knownMembers: [StaticString] = [
        "alert", "badge", "sound", "thread-id", "category", "content-available", "mutable-content", "target-content-id",
        "interruption-level", "relevance-score", "filter-criteria", "stale-date", "content-state", "timestamp", "event",
        "dismissal-date", "attributes-type", "attributes", "input-push-token", "input-push-channel", "url-args",
    ]

    /// The `alert` members that make an alert show something.
    static let shownAlertKeys: [StaticString] = ["title", "subtitle", "body", "title-loc-key", "subtitle-loc-key", "loc-key"]

    /// The members of `aps` the lint reads.
    enum Member {
        case alert, sound, badge, contentAvailable, mutableContent, timestamp, event, interruptionLevel, relevanceScore, other

        init(_ name: UnsafeBufferPointer<UInt8>) {
            switch name.count {
            case 5 where APSFacts.equal(name, "alert"): self = .alert
            case 5 where APSFacts.equal(name, "sound"): self = .sound
            case 5 where APSFacts.equal(name, "badge"): self = .badge
            case 5 where APSFacts.equal(name, "event"): self = .event
            case 9 where APSFacts.equal(name, "timestamp"): self = .timestamp
            case 15 where APSFacts.equal(name, "mutable-content"): self = .mutableContent
            case 15 where APSFacts.equal(name, "relevance-score"): self = .relevanceScore
            case 18 where APSFacts.equal(name, "interruption-level"): self = .interruptionLevel
            case 17 where APSFacts.equal(name, "content-available"): self = .contentAvailable
            default: self = .other
            }
        }
    }

    /// Notes `name` when no platform reads it (called for the members ``Member`` calls `other`).
    mutating func check(member name: UnsafeBufferPointer<UInt8>) {
        guard self.unknownMember == nil, !Self.knownMembers.contains(where: { Self.equal(name, $0) }) else { return }
        self.unknownMember = PushLint.short(String(decoding: name, as: UTF8.self))
    }

    static func equal(_ bytes: UnsafeBufferPointer<UInt8>, _ text: StaticString) -> Bool {
        bytes.count == text.utf8CodeUnitCount
            && bytes.elementsEqual(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
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
        case .interruptionLevel:
            let level = JSONValue.parse(Array(value))
            if !Self.interruptionLevels.contains(level?.string ?? "") { self.badInterruptionLevel = level ?? .null }
        case .relevanceScore:
            self.badRelevanceScore = Self.unlessFraction(value)
        case .other:
            break
        }
    }

    /// The levels `interruption-level` takes (UserNotifications' `UNNotificationInterruptionLevel`).
    static let interruptionLevels: Set<String> = ["passive", "active", "time-sensitive", "critical"]

    /// The value, unless it is a number from 0 to 1.
    static func unlessFraction(_ value: UnsafeBufferPointer<UInt8>) -> JSONValue? {
        let parsed = JSONValue.parse(Array(value))
        if let number = parsed?.number, (0...1).contains(number) { return nil }
        return parsed ?? .null
    }

    /// The `volume` of a sound dictionary (a critical alert's, 0 to 1).
    mutating func readSoundVolume(_ value: UnsafeBufferPointer<UInt8>) {
        self.badVolume = Self.unlessFraction(value)
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

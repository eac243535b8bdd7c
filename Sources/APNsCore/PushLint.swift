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
        // A web push carries an encrypted message, not an aps dictionary: nothing to lint.
        guard notification.source != .webPush else { return [] }
        return self.warnings(for: notification, aps: APSFacts(payload: notification.payload))
    }

    /// The warnings, with the payload's `aps` already read (``JSONObjectValidator/scan(_:)``
    /// gathers it while validating, so the accept path reads the payload once).
    public static func warnings(for notification: Notification, aps: APSFacts?) -> [PushWarning] {
        var warnings: [PushWarning] = []
        let type = notification.pushType
        if type == .background && notification.priority == .immediate {
            warnings.append(
                .init(
                    "background-priority",
                    "a background push at priority 10 is accepted, but devices may not wake the app for it; send apns-priority 5")
            )
        }
        if let suffix = Self.topicSuffixes[type], let topic = notification.topic, !topic.hasSuffix(suffix) {
            warnings.append(
                .init(
                    "topic-suffix",
                    "a \(type) push goes to the topic <bundle id>\(suffix); \(topic) is not one, so no \(type) token belongs to it"
                ))
        }
        // APNs takes the topic from a certificate that names one; without one (`--auth none`,
        // no certificate) it answers 400 MissingTopic, which the emulator leaves to strict mode.
        if notification.topic == nil && notification.source == .http2 {
            warnings.append(
                .init(
                    "missing-topic",
                    "no apns-topic: APNs answers 400 MissingTopic unless the provider's certificate names exactly one topic; send apns-topic: <bundle id>"
                ))
        }
        guard let aps else {
            if type == .alert {
                warnings.append(.init("alert-without-alert", "an alert push without an aps dictionary shows nothing"))
            }
            return warnings
        }
        warnings += Self.lint(aps, type: type, priority: notification.priority)
        // Read again only for Live Activity pushes: the one-pass facts carry no member names.
        if type == .liveactivity { warnings += LiveActivityLint.warnings(payload: notification.payload) }
        return warnings
    }

    static func lint(_ aps: APSFacts, type: PushType, priority: Priority) -> [PushWarning] {
        var warnings: [PushWarning] = []
        if type == .alert && !aps.alertShows && !aps.hasSound && !aps.hasBadge {
            warnings.append(
                aps.contentAvailable
                    ? .init(
                        "alert-without-alert",
                        "a push with only content-available is a background push: send apns-push-type background and apns-priority 5"
                    )
                    : .init("alert-without-alert", "an alert push with no alert, sound or badge shows nothing")
            )
        }
        if aps.contentAvailable && aps.alertShows && priority != .immediate {
            warnings.append(
                .init(
                    "alert-priority",
                    "an alert at priority \(priority.rawValue) may be delayed or grouped; alerts go at priority 10"))
        }
        if aps.mutableContent && !aps.alertShows {
            warnings.append(
                .init(
                    "mutable-content-without-alert",
                    "mutable-content without an alert: the notification service extension only runs for alerts"))
        }
        if type == .liveactivity {
            let missing = [("timestamp", aps.hasTimestamp), ("event", aps.hasEvent)].filter { !$0.1 }.map(\.0)
            if !missing.isEmpty {
                warnings.append(
                    .init(
                        "liveactivity-fields",
                        "a Live Activity push needs \(missing.joined(separator: " and ")) in aps; the device ignores it without"))
            }
        }
        if let badge = aps.badBadge {
            warnings.append(.init("badge-not-number", "badge must be a whole number; the device ignores \(Self.describe(badge))"))
        }
        // A Live Activity's unread members are liveactivity-ignored's (LiveActivityLint).
        if let name = aps.unknownMember, type != .liveactivity {
            let nearest = NearestWord.nearest(name, in: APSFacts.knownMembers.map { "\($0)" })
            let hint =
                nearest.map { "did you mean \"\($0)\"?" } ?? "aps members are alert, badge, sound, thread-id, category, ..."
            warnings.append(.init("aps-unknown-key", "aps has no member \"\(name)\": the device ignores it; \(hint)"))
        }
        warnings += Self.lintLevel(aps)
        if let name = aps.soundWithoutExtension {
            warnings.append(
                .init(
                    "sound-extension",
                    "sound \"\(Self.short(name))\" has no file extension; the device plays the default sound unless the app bundles a file of exactly that name"
                ))
        }
        return warnings
    }

    /// The interruption level, the relevance score and a critical sound's volume (iOS 15;
    /// Apple's "Generating a remote notification": `interruption-level` is one of four words,
    /// `relevance-score` and the sound's `volume` numbers from 0 to 1).
    static func lintLevel(_ aps: APSFacts) -> [PushWarning] {
        var warnings: [PushWarning] = []
        if let level = aps.badInterruptionLevel {
            warnings.append(
                .init(
                    "interruption-level",
                    "interruption-level is passive, active, time-sensitive or critical; the device presents \(Self.describe(level)) as active"
                ))
        }
        if let score = aps.badRelevanceScore {
            warnings.append(
                .init(
                    "relevance-score",
                    "relevance-score is a number from 0 to 1 (the Scheduled Summary's order); the device ignores \(Self.describe(score))"
                ))
        }
        if let volume = aps.badVolume {
            warnings.append(
                .init("sound-volume", "a sound's volume is a number from 0 to 1; the device ignores \(Self.describe(volume))"))
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

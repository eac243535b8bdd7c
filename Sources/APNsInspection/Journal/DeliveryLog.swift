import APNsCore
import APNsDevice

/// The delivery log of an accepted notification, built from its journal entry: received, where
/// it waited, how it left APNs, and the phone's decision last.
public enum DeliveryLog {
    public static let received = "Received by APNs"
    public static let delivered = "Delivered to Device"
    public static let deliveredFromStorage = "Delivered to Device (From Storage)"
    public static let storedOffline = "Stored - Device Offline"
    public static let storedPower = "Stored - Power Considerations"
    public static let discardedUnregistered = "Discarded - Token Unregistered"
    public static let discardedUnregisteredFromStorage = "Discarded - Token Unregistered (From Storage)"
    public static let discardedExpired = "Discarded - Expired"
    public static let discardedDisabled = "Discarded - Disabled"
    public static let discardedDisabledFromStorage = "Discarded - Disabled (From Storage)"
    /// Not one of the Console's metrics: APNs stores one notification per app while the device is
    /// offline, and one per collapse id.
    public static let replaced = "Replaced - Newer Notification"
    /// Not one of the Console's metrics: the emulator's own cap on a device's queue.
    public static let dropped = "Dropped - Storage Full"
    public static let phoneDecision = "Phone Decision"

    /// The front door a notification came through and the protocol it spoke, in words.
    static func door(_ source: Interface, _ marks: DeliveryMarks = []) -> String {
        switch source {
        case .binary: "binary interface"
        case .webPush: "Web Push service (RFC 8030) over \(marks.contains(.overHTTP1) ? "HTTP/1.1" : "HTTP/2")"
        case .local: "local notification scheduled on the phone"
        case .broadcast: "broadcast channel"
        default: "HTTP/2 provider API"
        }
    }

    /// The endpoint a provider's push was sent to (`, production endpoint (api.push.apple.com)`);
    /// nothing for the doors without environments (Web Push, the phone's own, a broadcast).
    static func endpoint(_ notification: Notification) -> String {
        guard notification.source == .http2 || notification.source == .binary else { return "" }
        let environment = notification.environment
        let host = notification.source == .http2 ? environment.providerHost : environment.gatewayHost
        return ", \(environment.endpointName.dropFirst("the ".count)) (\(host))"
    }

    /// The steps, oldest first; nil for an entry that is not an accepted notification.
    public static func events(of entry: JournalEntry) -> [DeliveryEvent]? {
        guard case .accepted(let notification) = entry.push else { return nil }
        var events = [
            DeliveryEvent(
                Self.received, at: notification.receivedAt,
                "\(Self.door(notification.source, entry.marks))\(Self.endpoint(notification)): push type \(notification.pushType), priority \(notification.priority.rawValue)"
            )
        ]
        if entry.marks.contains(.storedOffline) {
            events.append(
                DeliveryEvent(
                    Self.storedOffline, at: notification.receivedAt,
                    "no device held the token: kept until one connects or it expires"))
        }
        if entry.marks.contains(.storedPower), let held = entry.heldAt {
            events.append(
                DeliveryEvent(
                    Self.storedPower, at: held,
                    "the device's power state held priority \(notification.priority.rawValue) back for a later burst"))
        }
        if let left = Self.outcome(of: entry, notification) { events.append(left) }
        if let decision = Self.decision(of: entry) { events.append(decision) }
        return events
    }

    /// The name of the step by which it left APNs (nil while it has not); cheap, for counting.
    static func outcomeName(_ status: JournalStatus, _ marks: DeliveryMarks, _ presentation: Presentation?) -> String? {
        let stored = marks.fromStorage
        switch status {
        case .delivered:
            if presentation?.notificationsDisabled == true {
                return stored ? Self.discardedDisabledFromStorage : Self.discardedDisabled
            }
            return stored ? Self.deliveredFromStorage : Self.delivered
        case .expired, .discarded: return Self.discardedExpired
        case .unregistered: return stored ? Self.discardedUnregisteredFromStorage : Self.discardedUnregistered
        case .replaced: return Self.replaced
        case .dropped: return Self.dropped
        default: return nil
        }
    }

    /// How it left APNs, if it has.
    static func outcome(of entry: JournalEntry, _ notification: Notification) -> DeliveryEvent? {
        guard let name = Self.outcomeName(entry.status, entry.marks, entry.presentation) else { return nil }
        let at = entry.statusAt ?? notification.receivedAt
        let detail: String
        switch entry.status {
        case .delivered:
            detail =
                entry.presentation?.notificationsDisabled == true
                ? "the user turned notifications off for the app" : "the device acknowledged it"
        case .expired: detail = "its apns-expiration passed before a device took it"
        case .discarded: detail = "apns-expiration 0 and no device online: APNs tries once and does not store it"
        case .unregistered: detail = "the app was removed: its token is no longer active"
        case .replaced:
            detail =
                notification.collapseID.map { "a newer notification with apns-collapse-id \($0) took its place in storage" }
                ?? "a newer notification for the app arrived while the device was offline: APNs stores one notification per app, the latest (--storage-policy all keeps every one)"
        default:
            detail =
                "the emulator's storage was full (the device's queue over --max-queued-per-device, or the store over --map-size); the oldest went"
        }
        return DeliveryEvent(name, at: at, detail)
    }

    /// What the phone did, last.
    static func decision(of entry: JournalEntry) -> DeliveryEvent? {
        let at = entry.statusAt ?? entry.receivedAt
        if let activity = entry.activity {
            return DeliveryEvent(
                Self.phoneDecision, at: at,
                "Live Activity \(activity.event): \(activity.outcome)\(activity.reason.map { " (\($0))" } ?? "")")
        }
        guard let presentation = entry.presentation else { return nil }
        return DeliveryEvent(Self.phoneDecision, at: at, Self.summary(of: presentation))
    }

    /// One line for a person: what they saw, or why they saw nothing.
    public static func summary(of presentation: Presentation) -> String {
        if let wake = presentation.wake { return "\(wake.target) \(wake.outcome.rawValue): \(wake.detail)" }
        if presentation.silent {
            return presentation.appNotified
                ? "silent: the app was woken in the background" : "silent: nothing shown and the app not woken"
        }
        if presentation.shown {
            let text = [presentation.title, presentation.body].compactMap { $0 }.joined(separator: ": ")
            if let at = presentation.summaryAt {
                let when = Timestamp.rfc3339(millis: at)
                return
                    (presentation.summaryPresented
                    ? "presented in the Scheduled Summary of \(when)" : "held for the Scheduled Summary at \(when)")
                    + (text.isEmpty ? "" : ": \(text)")
            }
            // What held a quiet delivery and what broke through a Focus, as the row says (issue 70).
            if presentation.deliveredQuietly {
                return
                    "delivered quietly to Notification Center\(PhoneOutcome.holder(presentation))\(text.isEmpty ? "" : ": \(text)")"
            }
            let style =
                presentation.style == .none
                ? "a Notification Center entry" : (presentation.style == .alert ? "an " : "a ") + presentation.style.rawValue
            let through = presentation.brokeThrough ? ", breaking through a Focus" : ""
            return "shown as \(style)\(through)\(text.isEmpty ? "" : ": \(text)")"
        }
        let reasons = presentation.suppressed.map { "\($0.what): \($0.reason)" }.joined(separator: "; ")
        return "not shown (\(reasons.isEmpty ? "nothing to show" : reasons))"
    }

    public static func write(_ events: [DeliveryEvent], into writer: inout JSONWriter) {
        writer.array(events) { writer, event in
            writer.object { fields in
                fields.member("event") { $0.string(event.event) }
                fields.member("at") { $0.string(Timestamp.rfc3339(millis: event.at)) }
                fields.member("detail") { $0.string(event.detail) }
            }
        }
    }
}

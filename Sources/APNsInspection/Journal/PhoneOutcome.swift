import APNsCore
import APNsDevice

/// What the phone made of a journal entry, in one word and one line: the outcome a list shows
/// beside the relay's status (a push can be `delivered` and still show nothing, or `queued` and
/// already be on a web app's screen). Derived from what the entry holds; nothing is stored.
public struct PhoneOutcome: Hashable, Sendable {
    /// The kind of outcome, for colour and filters: `shown`, `notShown`, `app` (handed to the app
    /// or an extension, nothing for the user to see), `waiting`, `rejected` or `none` (the phone
    /// never saw it: expired, replaced, no app modelled for its token).
    public struct State: RawRepresentable, Hashable, Sendable {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public static let shown = State(rawValue: "shown")
        public static let notShown = State(rawValue: "notShown")
        public static let app = State(rawValue: "app")
        public static let waiting = State(rawValue: "waiting")
        public static let rejected = State(rawValue: "rejected")
        public static let none = State(rawValue: "none")
        public static let all: [State] = [.shown, .notShown, .app, .waiting, .rejected, .none]
    }

    public var state: State
    /// What happened, as a person would say it: `shown as banner`, `not started (missing-alert)`.
    public var text: String

    public init(_ state: State, _ text: String) {
        self.state = state
        self.text = text
    }

    /// The outcome of `entry`: what its Live Activity record, presentation, or status says.
    public init(of entry: JournalEntry) {
        switch entry.push {
        case .rejected(let rejected):
            let answer = [rejected.httpStatus.map { String($0) }, rejected.reason].compactMap { $0 }.joined(separator: " ")
            if rejected.wasNotProcessed {
                // Above a GOAWAY's last-stream-id: the client may send it again.
                self.init(.none, "not processed (after a GOAWAY): never reached the phone")
            } else {
                self.init(.rejected, answer.isEmpty ? "refused: never reached the phone" : "refused \(answer)")
            }
        case .broadcast(let record):
            self.init(Self.broadcast(record))
        case .accepted:
            if let activity = entry.activity {
                self.init(Self.activity(activity))
            } else if let presentation = entry.presentation {
                self.init(Self.presentation(presentation))
            } else if entry.marks.contains(.extending) {
                self.init(.waiting, "waiting for the app's service extension")
            } else {
                self.init(Self.unpresented(entry.status))
            }
        }
    }

    private init(_ outcome: PhoneOutcome) { self = outcome }

    /// ``init(of:)``'s state alone, without building its words: for the journal's archive, on the
    /// writer thread.
    public static func state(of entry: JournalEntry) -> State {
        if case .accepted = entry.push, entry.activity == nil, entry.presentation == nil {
            return entry.status == .queued || entry.marks.contains(.extending) ? .waiting : .none
        }
        return PhoneOutcome(of: entry).state
    }

    static func broadcast(_ record: BroadcastRecord) -> PhoneOutcome {
        if let reason = record.reason { return PhoneOutcome(.rejected, "refused \(record.httpStatus) \(reason)") }
        guard record.operation == "publish", let fanOut = record.fanOut else {
            return PhoneOutcome(.none, "channel \(record.operation ?? "request"): no phone involved")
        }
        return fanOut == 0
            ? PhoneOutcome(.notShown, "broadcast reached no activity")
            : PhoneOutcome(.shown, "broadcast to \(fanOut) \(fanOut == 1 ? "activity" : "activities")")
    }

    static func activity(_ record: ActivityRecord) -> PhoneOutcome {
        let why = record.code.map { " (\($0))" } ?? ""
        switch record.outcome {
        case "started": return PhoneOutcome(.shown, "activity started")
        case "not started": return PhoneOutcome(.notShown, "activity not started\(why)")
        case "applied":
            let event = record.event == "end" ? "ended" : record.event == "start" ? "started" : "updated"
            return PhoneOutcome(.shown, "activity \(event)")
        default: return PhoneOutcome(.notShown, "activity \(record.event) \(record.outcome)\(why)")
        }
    }

    static func presentation(_ presentation: Presentation) -> PhoneOutcome {
        if let web = presentation.webPush {
            switch web.outcome {
            case .declarative: return PhoneOutcome(.shown, "web push shown")
            case .serviceWorker: return PhoneOutcome(.app, "web push to the service worker")
            default: return PhoneOutcome(.notShown, "web push not shown (\(web.outcome.rawValue))")
            }
        }
        if let wake = presentation.wake {
            let state: State = [.notWoken, .deferred, .terminated].contains(wake.outcome) ? .notShown : .app
            return PhoneOutcome(state, "\(wake.target) \(Self.words(wake.outcome.rawValue))")
        }
        if presentation.shown {
            // A quiet delivery says what held it, and a Focus broken through says so (issue 70).
            let through = presentation.brokeThrough ? ", through a Focus" : ""
            if presentation.deliveredQuietly { return PhoneOutcome(.shown, "delivered quietly\(Self.holder(presentation))") }
            switch presentation.style {
            case .alert, .banner: return PhoneOutcome(.shown, "shown as \(presentation.style.rawValue)\(through)")
            case .none: return PhoneOutcome(.shown, "shown in Notification Center\(through)")
            }
        }
        if presentation.silent, let why = presentation.notDelivered {
            return PhoneOutcome(.notShown, "silent: not delivered (\(why))")
        }
        if presentation.silent { return PhoneOutcome(.app, presentation.appNotified ? "silent: the app was woken" : "silent") }
        if presentation.notificationsDisabled { return PhoneOutcome(.notShown, "not shown (notifications off)") }
        let why = presentation.suppressed.first.map { " (\($0.what): \($0.reason))" } ?? ""
        return PhoneOutcome(.notShown, "not shown\(why)")
    }

    /// What held a quiet delivery, in words: ` (a Focus held it)`.
    static func holder(_ presentation: Presentation) -> String {
        switch presentation.heldBy {
        case "focus": " (a Focus held it)"
        case "focusFilter": " (the app's Focus filter held it)"
        case "provisional": " (provisional authorization)"
        case "summary": presentation.summaryPresented ? " (in the Scheduled Summary)" : " (held for the Scheduled Summary)"
        default: presentation.interruptionLevel == .passive ? " (interruption-level passive)" : ""
        }
    }

    static func unpresented(_ status: JournalStatus) -> PhoneOutcome {
        switch status {
        case .queued: return PhoneOutcome(.waiting, "waiting for the device")
        case .delivered: return PhoneOutcome(.none, "delivered; no app modelled for this token")
        // APNs stores one notification per app while the device is offline (or one per collapse id).
        case .replaced: return PhoneOutcome(.none, "replaced by a newer push")
        default: return PhoneOutcome(.none, "\(status.rawValue): never reached the phone")
        }
    }

    /// `notWoken` as `not woken`.
    private static func words(_ camel: String) -> String {
        camel.reduce(into: "") { text, character in
            if character.isUppercase { text += " " + character.lowercased() } else { text.append(character) }
        }
    }
}

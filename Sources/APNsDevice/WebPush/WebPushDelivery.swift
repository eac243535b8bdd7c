/// What the browser did with one web push, as the phone's record of it shows (the presentation's
/// `webPush`): which web app, what the message said once opened, and where it went.
public struct WebPushDelivery: Hashable, Sendable, Codable {
    /// Where the push went.
    public struct Outcome: RawRepresentable, Hashable, Sendable, Codable {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        /// A declarative message the browser showed itself.
        public static let declarative = Outcome(rawValue: "declarative")
        /// Handed to the service worker's `push` event, which is expected to show a notification.
        public static let serviceWorker = Outcome(rawValue: "serviceWorker")
        /// Opened, but notifications are not allowed for the origin: nothing shown.
        public static let notAllowed = Outcome(rawValue: "notAllowed")
        /// The body did not open with the subscription's keys (RFC 8291): dropped.
        public static let undecryptable = Outcome(rawValue: "undecryptable")
        /// The subscription ended before the push reached the browser: dropped.
        public static let unsubscribed = Outcome(rawValue: "unsubscribed")
    }

    public var webAppID: String
    public var origin: String
    public var kind: String
    public var outcome: Outcome
    /// The opened message as text (nil when it did not open, or is not UTF-8).
    public var message: String?
    /// How many bytes the opened message has.
    public var messageLength: Int?
    /// A declarative message's URL a tap opens, and the badge it set.
    public var navigate: String?
    public var appBadge: Int?
    /// The VAPID `sub` of the application server that sent it, and the request's `Urgency` and
    /// `Topic`.
    public var vapidSubject: String?
    public var urgency: String?
    public var topic: String?
    /// What happened, in a sentence.
    public var detail: String

    public init(webApp: WebApp, facts: WebPushFacts, outcome: Outcome, detail: String) {
        self.webAppID = webApp.id
        self.origin = webApp.origin
        self.kind = webApp.kind.rawValue
        self.outcome = outcome
        self.vapidSubject = facts.vapidSubject
        self.urgency = facts.urgency
        self.topic = facts.topic
        self.detail = detail
    }
}

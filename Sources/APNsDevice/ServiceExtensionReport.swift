/// What an app's service extension did with a notification, in its presentation: whether the
/// content shown is the extension's (`modified`) or the original (`timeWillExpire`, `failed`),
/// the original texts, and how long it took on the emulator's clock.
public struct ServiceExtensionReport: Hashable, Sendable, Codable {
    public enum Outcome: String, Hashable, Sendable, Codable {
        /// The extension replied in time: its content is shown.
        case modified
        /// It did not reply within its time: iOS calls `serviceExtensionTimeWillExpire` and,
        /// with no content handed back, shows the original.
        case timeWillExpire
        /// It crashed, could not be reached or replied with something that is not content:
        /// the original is shown.
        case failed
    }

    public var outcome: Outcome
    /// Where it ran: `command`, `url` or `device`.
    public var kind: String
    /// The texts the notification arrived with (the extension's are the presentation's own).
    public var original: Texts
    public var tookMs: Int64
    /// Why it failed or what it was given, in words (the exit status, the answer's status).
    public var reason: String?
    /// The files it attached, each with iOS's check.
    public var attachments: [ExtensionAttachment] = []

    public struct Texts: Hashable, Sendable, Codable {
        public var title: String
        public var subtitle: String
        public var body: String
    }

    public init(outcome: Outcome, kind: String, original: ExtensionContent, tookMs: Int64, reason: String? = nil) {
        self.outcome = outcome
        self.kind = kind
        self.original = Texts(title: original.title, subtitle: original.subtitle, body: original.body)
        self.tookMs = tookMs
        self.reason = reason
    }
}

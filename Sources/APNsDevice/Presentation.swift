import APNsCore

/// What the phone did with one notification when it arrived: what the user saw and heard, what
/// was held back and why, and whether the app itself was told.
public struct Presentation: Hashable, Sendable, Codable {
    /// Whether the notification reached the screen or Notification Center.
    public var shown = false
    /// How it appeared: an alert or a banner, or none (Notification Center only, or not shown).
    public var style = PresentationStyle.none
    /// The texts as shown, after localisation.
    public var title: String?
    public var subtitle: String?
    public var body: String?
    /// The sound played: `default` or a bundled file's name; nil when none played.
    public var sound: String?
    /// The number the app's icon was set to; nil when the badge was left alone.
    public var badge: Int?
    /// The category the payload named (registered or not).
    public var category: String?
    public var threadID: String?
    /// The buttons in the default context (an alert): at most four.
    public var actions: [NotificationAction] = []
    /// The buttons in the minimal context (banner, lock screen, Notification Center): at most two.
    public var minimalActions: [NotificationAction] = []
    /// What the payload asked for that the phone did not do, and why (in JSON an object from
    /// `alert`, `sound`, `badge` to the reason).
    public var suppressed: [Suppression] = []
    /// Nothing for the user: no alert, sound or badge in the payload.
    public var silent = false
    /// Each localisable text, with whether the app's strings had its key.
    public var localized: [LocalizedText] = []
    /// Whether the app was handed the notification (in the foreground, or woken in the background).
    public var appNotified = false
    /// Other things a person would want to know (a sound replaced, a category not registered).
    public var notes: [String] = []
    /// The user turned the app's notifications off (authorization denied) and the payload had
    /// something for them: APNs counts it as "Discarded - Disabled".
    public var notificationsDisabled = false
    /// For the push types that wake a part of the app rather than show anything (widgets,
    /// controls, push to talk, location, complication, file provider, MDM): what the phone did.
    public var wake: WakeOutcome?
    /// For a web push: what the browser did with it (``WebPushDelivery``); absent otherwise.
    public var webPush: WebPushDelivery?
    /// The interruption level the phone applied (``InterruptionLevel``): the payload's, or
    /// `active` when the app may not use it (`notes` says why); nil for a silent push.
    public var interruptionLevel: InterruptionLevel?
    /// Added to Notification Center without a banner, sound or lighting the screen.
    public var deliveredQuietly = false
    /// What made it quiet, when something did: `provisional` (the app's authorization), `focus`
    /// (a Focus that does not allow the app) or `focusFilter` (the app's Focus filter does not
    /// name its `filter-criteria`).
    public var heldBy: String?
    /// A Focus that does not allow the app let it through: critical, or time-sensitive with
    /// the Focus's Time Sensitive switch on.
    public var brokeThrough = false
    /// A background push that did not wake the app: why (force-quit, Background App Refresh off,
    /// over the phone's budget); nil otherwise.
    public var notDelivered: String?
    /// What the app's service extension did, when one ran (``ServiceExtensionReport``).
    public var serviceExtension: ServiceExtensionReport?
    /// The payload's `target-content-id`: the window or content a tap brings forward (the user's
    /// response carries it to the app).
    public var targetContentID: String?
    /// Shown as a communication notification: who sent it and the conversation (``Communication``).
    public var communication: Communication?
    /// Held for the Scheduled Summary: the summary it is presented in (milliseconds since 1970, on
    /// the emulator's clock).
    public var summaryAt: Int64?
    /// The Scheduled Summary it waited for was presented (the emulator's clock reached
    /// `summaryAt`); until then it is in the upcoming summary.
    public var summaryPresented = false
    /// The payload's `relevance-score` (0 to 1): the summary presents the most relevant first.
    public var relevanceScore: Double?
    /// The payload's `summary-arg` and `summary-arg-count` (1 when absent) on iOS 12 to 14, which
    /// name the notification in its thread stack's summary ("2 more notifications from Ana");
    /// nil on iOS 15 and later, which ignore them.
    public var summaryArgument: String?
    public var summaryArgumentCount: Int?

    public init() {}

    enum CodingKeys: String, CodingKey {
        case shown, style, title, subtitle, body, sound, badge, category
        case threadID = "threadId"
        case actions, minimalActions, suppressed,
            silent, localized, appNotified, notes, notificationsDisabled, wake, webPush
        case interruptionLevel, deliveredQuietly, heldBy, brokeThrough, notDelivered, serviceExtension
        case targetContentID = "targetContentId"
        case communication, summaryAt, summaryPresented, relevanceScore, summaryArgument, summaryArgumentCount
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(self.shown, forKey: .shown)
        try container.encode(self.style, forKey: .style)
        // Absent texts, sound and badge are null rather than missing: a reader sees every field.
        try container.encode(self.title, forKey: .title)
        try container.encode(self.subtitle, forKey: .subtitle)
        try container.encode(self.body, forKey: .body)
        try container.encode(self.sound, forKey: .sound)
        try container.encode(self.badge, forKey: .badge)
        try container.encode(self.category, forKey: .category)
        try container.encode(self.threadID, forKey: .threadID)
        try container.encode(self.actions, forKey: .actions)
        try container.encode(self.minimalActions, forKey: .minimalActions)
        var suppressed = container.nestedContainer(keyedBy: AnyCodingKey.self, forKey: .suppressed)
        for item in self.suppressed { try suppressed.encode(item.reason, forKey: AnyCodingKey(stringValue: item.what)) }
        try container.encode(self.silent, forKey: .silent)
        try container.encode(self.localized, forKey: .localized)
        try container.encode(self.appNotified, forKey: .appNotified)
        try container.encode(self.notes, forKey: .notes)
        try container.encode(self.notificationsDisabled, forKey: .notificationsDisabled)
        try container.encode(self.wake, forKey: .wake)
        try container.encodeIfPresent(self.webPush, forKey: .webPush)
        try container.encode(self.interruptionLevel, forKey: .interruptionLevel)
        try container.encode(self.deliveredQuietly, forKey: .deliveredQuietly)
        try container.encode(self.heldBy, forKey: .heldBy)
        try container.encode(self.brokeThrough, forKey: .brokeThrough)
        try container.encode(self.notDelivered, forKey: .notDelivered)
        try container.encode(self.serviceExtension, forKey: .serviceExtension)
        try container.encode(self.targetContentID, forKey: .targetContentID)
        try container.encode(self.communication, forKey: .communication)
        try container.encode(self.summaryAt, forKey: .summaryAt)
        try container.encode(self.summaryPresented, forKey: .summaryPresented)
        try container.encode(self.relevanceScore, forKey: .relevanceScore)
        try container.encode(self.summaryArgument, forKey: .summaryArgument)
        try container.encode(self.summaryArgumentCount, forKey: .summaryArgumentCount)
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.shown = try container.decode(Bool.self, forKey: .shown)
        self.style = try container.decode(PresentationStyle.self, forKey: .style)
        self.title = try container.decodeIfPresent(String.self, forKey: .title)
        self.subtitle = try container.decodeIfPresent(String.self, forKey: .subtitle)
        self.body = try container.decodeIfPresent(String.self, forKey: .body)
        self.sound = try container.decodeIfPresent(String.self, forKey: .sound)
        self.badge = try container.decodeIfPresent(Int.self, forKey: .badge)
        self.category = try container.decodeIfPresent(String.self, forKey: .category)
        self.threadID = try container.decodeIfPresent(String.self, forKey: .threadID)
        self.actions = try container.decode([NotificationAction].self, forKey: .actions)
        self.minimalActions = try container.decode([NotificationAction].self, forKey: .minimalActions)
        let suppressed = try container.decode([String: String].self, forKey: .suppressed)
        self.suppressed = ["alert", "sound", "badge"].compactMap { what in
            suppressed[what].map { Suppression(what: what, reason: $0) }
        }
        self.silent = try container.decode(Bool.self, forKey: .silent)
        self.localized = try container.decode([LocalizedText].self, forKey: .localized)
        self.appNotified = try container.decode(Bool.self, forKey: .appNotified)
        self.notes = try container.decode([String].self, forKey: .notes)
        self.notificationsDisabled = try container.decodeIfPresent(Bool.self, forKey: .notificationsDisabled) ?? false
        self.wake = try container.decodeIfPresent(WakeOutcome.self, forKey: .wake)
        self.webPush = try container.decodeIfPresent(WebPushDelivery.self, forKey: .webPush)
        self.interruptionLevel = try container.decodeIfPresent(InterruptionLevel.self, forKey: .interruptionLevel)
        self.deliveredQuietly = try container.decodeIfPresent(Bool.self, forKey: .deliveredQuietly) ?? false
        self.heldBy = try container.decodeIfPresent(String.self, forKey: .heldBy)
        self.brokeThrough = try container.decodeIfPresent(Bool.self, forKey: .brokeThrough) ?? false
        self.notDelivered = try container.decodeIfPresent(String.self, forKey: .notDelivered)
        self.serviceExtension = try container.decodeIfPresent(ServiceExtensionReport.self, forKey: .serviceExtension)
        self.targetContentID = try container.decodeIfPresent(String.self, forKey: .targetContentID)
        self.communication = try container.decodeIfPresent(Communication.self, forKey: .communication)
        self.summaryAt = try container.decodeIfPresent(Int64.self, forKey: .summaryAt)
        self.summaryPresented = try container.decodeIfPresent(Bool.self, forKey: .summaryPresented) ?? false
        self.relevanceScore = try container.decodeIfPresent(Double.self, forKey: .relevanceScore)
        self.summaryArgument = try container.decodeIfPresent(String.self, forKey: .summaryArgument)
        self.summaryArgumentCount = try container.decodeIfPresent(Int.self, forKey: .summaryArgumentCount)
    }

    /// The buttons offered in `context`.
    public func actions(in context: ActionContext) -> [NotificationAction] {
        context == .alert ? self.actions : self.minimalActions
    }
}

import APNsCore

/// One Live Activity on the phone: ActivityKit's `Activity` as the emulator keeps it, with what
/// happened to it. Times are milliseconds since the UNIX epoch on the emulator's clock.
public struct LiveActivity: Codable, Hashable, Sendable {
    public var id: String
    public var attributesType: String
    public var attributes: JSONValue
    public var contentState: JSONValue
    public var activityState: ActivityState
    public var staleDate: Int64?
    /// When it leaves the Lock Screen (set once it ended).
    public var dismissalDate: Int64?
    public var relevanceScore: Double
    /// Its update token (hex), when it has one.
    public var updateToken: String?
    /// The broadcast channel it listens to (`input-push-channel`), when it has one.
    public var channelID: String?
    /// `push-to-start` or `app`.
    public var startedBy: String
    public var startedAt: Int64
    public var endedAt: Int64?
    /// The latest `timestamp` applied, in UNIX seconds (an older one is ignored).
    public var lastTimestamp: Double?
    /// The last alert a push lit the screen with, and when.
    public var alert: ActivityAlert?
    public var alertedAt: Int64?
    /// Each push and each change, oldest first (the latest ``historyLimit``).
    public var history: [ActivityHistoryItem]
    /// A scheduled activity's start (iOS 26's `request(...start:)`): pending until then.
    public var scheduledStart: Int64?
    /// The alert a scheduled activity plays when it starts (its `alertConfiguration`).
    public var startAlert: ActivityAlert?
    /// ActivityKit's `ActivityStyle`: `standard` or `transient` (iOS 18's `style:`); nil is standard.
    public var style: ActivityStyle?

    public init(
        id: String, attributesType: String, attributes: JSONValue, contentState: JSONValue, startedBy: String, at now: Int64
    ) {
        self.id = id
        self.attributesType = attributesType
        self.attributes = attributes
        self.contentState = contentState
        self.activityState = .active
        self.relevanceScore = 0
        self.startedBy = startedBy
        self.startedAt = now
        self.history = []
    }

    public static let historyLimit = 100

    /// Whether it still shows as running (active or stale).
    public var isRunning: Bool { self.activityState == .active || self.activityState == .stale }

    /// Whether it is running or scheduled to: what counts toward the app's limit of concurrent
    /// activities, and what takes updates and an end (see ``AppModel/startActivity``).
    public var isLive: Bool { self.isRunning || self.activityState == .pending }

    mutating func record(_ item: ActivityHistoryItem) {
        self.history.append(item)
        if self.history.count > Self.historyLimit { self.history.removeFirst(self.history.count - Self.historyLimit) }
    }
}

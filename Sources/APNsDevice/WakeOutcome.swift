/// What the phone did for a push that wakes part of an app instead of showing anything: a
/// widget's or control's reload, a PushToTalk channel, a location push service extension, a
/// complication, a file provider, the MDM agent.
public struct WakeOutcome: Hashable, Sendable, Codable {
    /// The push type (`widgets`, `controls`, `pushtotalk`, `location`, ...).
    public var pushType: String
    /// What was woken: `widgets`, `controls`, `pushToTalkChannel`, `locationPushServiceExtension`,
    /// `complication`, `fileProviderExtension`, `mdmAgent`.
    public var target: String
    /// What became of the push.
    public enum Kind: String, Hashable, Sendable, Codable {
        case woken
        case reloaded
        /// Over the budget: it waits for the next reload the system allows.
        case deferred
        case notWoken
        /// A VoIP push the app did not report a call for: iOS terminated the app.
        case terminated
    }

    public var outcome: Kind
    /// What the app (or its extension) was told, or why nothing was woken.
    public var detail: String
    /// Extra facts the outcome carries: a reload budget's use, the remote participant.
    public var facts: [String: String]

    public init(pushType: String, target: String, outcome: Kind, detail: String, facts: [String: String] = [:]) {
        self.pushType = pushType
        self.target = target
        self.outcome = outcome
        self.detail = detail
        self.facts = facts
    }
}

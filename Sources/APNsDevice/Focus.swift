/// A Focus the user turned on (iOS 15: Do Not Disturb, Work, Sleep, ...): the apps it allows, and
/// whether time-sensitive notifications break through it. Notifications it silences are
/// delivered quietly to Notification Center; critical alerts always break through. Source:
/// Apple Support, "Use a Focus on your iPhone" (allowed apps and people, Time Sensitive
/// notifications), and "UNNotificationInterruptionLevel".
public struct Focus: Hashable, Sendable, Codable {
    /// Its name as the user sees it: `Work`, `Sleep`, `Do Not Disturb`.
    public var name: String
    /// The bundle ids (topics) of the apps whose notifications it lets through.
    public var allowedApps: [String]
    /// Whether time-sensitive notifications break through (the Focus's "Time Sensitive
    /// Notifications" switch, on by default).
    public var timeSensitive: Bool

    public init(name: String, allowedApps: [String] = [], timeSensitive: Bool = true) {
        (self.name, self.allowedApps, self.timeSensitive) = (name, allowedApps, timeSensitive)
    }

    /// Whether it lets the app of `topic` interrupt.
    public func allows(_ topic: String?) -> Bool {
        topic.map { self.allowedApps.contains($0) } ?? false
    }
}

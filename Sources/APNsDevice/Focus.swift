/// A Focus the user turned on (iOS 15: Do Not Disturb, Work, Sleep, ...): the apps it allows, and
/// whether time-sensitive notifications break through it. Notifications it silences are
/// delivered quietly to Notification Center; critical alerts always break through. Source:
/// Apple Support, "Use a Focus on your iPhone" (allowed apps and people, Time Sensitive
/// notifications), "UNNotificationInterruptionLevel", and (iOS 16) `UNNotificationContent.filterCriteria`
/// with AppIntents' `FocusFilterAppContext.notificationFilterPredicate` (an app's Focus filter
/// lets through, while the Focus is on, only the notifications whose `filter-criteria` it names).
public struct Focus: Hashable, Sendable, Codable {
    /// Its name as the user sees it: `Work`, `Sleep`, `Do Not Disturb`.
    public var name: String
    /// The bundle ids (topics) of the apps whose notifications it lets through.
    public var allowedApps: [String]
    /// Whether time-sensitive notifications break through (the Focus's "Time Sensitive
    /// Notifications" switch, on by default).
    public var timeSensitive: Bool
    /// Apps' Focus filters while this Focus is on: bundle id (topic), then the `filter-criteria`
    /// values its notifications may carry to be let through.
    public var filters: [String: [String]]
    /// The people whose communication notifications it lets through, by handle (`INPersonHandle`).
    public var allowedPeople: [String]

    public init(
        name: String, allowedApps: [String] = [], timeSensitive: Bool = true, filters: [String: [String]] = [:],
        allowedPeople: [String] = []
    ) {
        (self.name, self.allowedApps, self.timeSensitive) = (name, allowedApps, timeSensitive)
        (self.filters, self.allowedPeople) = (filters, allowedPeople)
    }

    private enum CodingKeys: String, CodingKey { case name, allowedApps, timeSensitive, filters, allowedPeople }

    /// A record written before filters existed has none.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            name: try container.decode(String.self, forKey: .name),
            allowedApps: try container.decode([String].self, forKey: .allowedApps),
            timeSensitive: try container.decode(Bool.self, forKey: .timeSensitive),
            filters: try container.decodeIfPresent([String: [String]].self, forKey: .filters) ?? [:],
            allowedPeople: try container.decodeIfPresent([String].self, forKey: .allowedPeople) ?? [])
    }

    /// Why the app's Focus filter holds a notification with `criteria` back; nil when the app has
    /// no filter in this Focus, or the filter names the criteria.
    public func filtered(_ topic: String?, criteria: String?) -> String? {
        guard let topic, let allowed = self.filters[topic] else { return nil }
        if let criteria, allowed.contains(criteria) { return nil }
        let named = criteria.map { "filter-criteria \($0)" } ?? "no filter-criteria"
        return
            "the app's Focus filter in \(self.name) lets through filter-criteria \(allowed.joined(separator: ", ")), and it has \(named)"
    }

    /// Whether it lets the app of `topic` interrupt.
    public func allows(_ topic: String?) -> Bool {
        topic.map { self.allowedApps.contains($0) } ?? false
    }
}

/// What decides whether a background push (`content-available: 1`, nothing for the user) wakes
/// the app. Sources: Apple, "Pushing background updates to your App" (the system treats them as
/// low priority and may throttle them; don't send more than two or three an hour), and
/// `application(_:didReceiveRemoteNotification:fetchCompletionHandler:)` (the system does not
/// launch an app the user force-quit, until the user launches it again); Background App Refresh
/// off in Settings stops them.
public struct BackgroundPushes: Hashable, Sendable, Codable {
    /// The user's Background App Refresh switch for the app.
    public var refresh = true
    /// The user swiped the app away; cleared when it comes to the foreground again.
    public var forceQuit = false
    /// The background pushes that may wake the app per hour (the phone's budget).
    public var perHour = 3
    /// When background pushes woke it, within the last hour.
    public var woken: [Int64] = []

    public init() {}

    private enum CodingKeys: String, CodingKey { case refresh, forceQuit, perHour, woken }

    /// A record written without a field keeps its default.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.refresh = try container.decodeIfPresent(Bool.self, forKey: .refresh) ?? true
        self.forceQuit = try container.decodeIfPresent(Bool.self, forKey: .forceQuit) ?? false
        self.perHour = try container.decodeIfPresent(Int.self, forKey: .perHour) ?? 3
        self.woken = try container.decodeIfPresent([Int64].self, forKey: .woken) ?? []
    }

    /// Why a background push at `millis` does not wake the app, or nil when it does (and is
    /// counted against the budget).
    public mutating func wake(at millis: Int64) -> String? {
        if self.forceQuit {
            return "the user force-quit the app: iOS does not launch it for background pushes until the user opens it again"
        }
        if !self.refresh { return "Background App Refresh is off for the app in Settings" }
        let hour: Int64 = 3_600_000
        self.woken.removeAll { $0 <= millis - hour }
        guard self.woken.count < self.perHour else {
            return
                "throttled: \(self.woken.count) background pushes woke the app in the last hour, the phone's budget (Apple advises no more than two or three an hour)"
        }
        self.woken.append(millis)
        return nil
    }
}

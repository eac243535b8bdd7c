/// The numbers iOS keeps to itself: how many Live Activities an app may run and how many pushes
/// it may receive. Apple publishes none of the budgets, only that they exist, that priority 5
/// does not draw from them, that `NSSupportsLiveActivitiesFrequentUpdates` raises the update
/// budget, and that push-to-start has its own; these defaults are the emulator's choice, and each
/// is a setting (`serve --activity-...`).
public struct ActivityLimits: Hashable, Sendable, Codable {
    /// Running (active or stale) activities per app; ActivityKit refuses more with
    /// `targetMaximumExceeded`. Developer documentation and vendors agree on 5.
    public var maximumConcurrent = 5
    /// Priority 10 updates and ends per app per hour.
    public var hourlyBudget = 15
    /// The same with frequent updates declared and allowed by the user.
    public var frequentHourlyBudget = 60
    /// Push-to-start pushes per app per hour (DTS: about ten in a short time, whatever the plist).
    public var pushToStartHourlyBudget = 10
    /// How long an activity may run before the system ends it: 8 hours.
    public var maximumDuration: Int64 = 8 * 3_600_000
    /// How long an ended activity stays on the Lock Screen at most: 4 hours.
    public var dismissalWindow: Int64 = 4 * 3_600_000
    /// How far in the future a `timestamp` may lie before the push is ignored.
    public var futureTimestampLimit: Int64 = 8 * 3_600_000

    public init() {}

    /// The update budget that applies to `app`.
    public func budget(for app: AppModel) -> Int {
        app.frequentUpdates.declared && app.frequentUpdates.enabled ? self.frequentHourlyBudget : self.hourlyBudget
    }
}

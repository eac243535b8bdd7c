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

/// `NSSupportsLiveActivitiesFrequentUpdates` in the app's Info.plist, and the user's switch for
/// it in Settings (on unless turned off).
public struct FrequentUpdates: Codable, Hashable, Sendable {
    public var declared: Bool
    public var enabled: Bool

    public init(declared: Bool = false, enabled: Bool = true) {
        self.declared = declared
        self.enabled = enabled
    }

    private enum CodingKeys: String, CodingKey, CaseIterable { case declared, enabled }

    public init(from decoder: any Decoder) throws {
        try decoder.refuseUnknown(CodingKeys.self, in: "frequentUpdates")
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.declared = try container.decodeIfPresent(Bool.self, forKey: .declared) ?? false
        self.enabled = try container.decodeIfPresent(Bool.self, forKey: .enabled) ?? true
    }
}

/// An iOS version (`17.2`, `18.0`), compared by its numbers.
public struct IOSVersion: Comparable, Hashable, Sendable, CustomStringConvertible {
    public var parts: [Int]

    public init?(_ text: String) {
        let pieces = text.split(separator: ".", omittingEmptySubsequences: false)
        let parts = pieces.compactMap { Int($0) }.filter { $0 >= 0 }
        guard (1...3).contains(pieces.count), parts.count == pieces.count else { return nil }
        self.parts = parts
    }

    public static func < (lhs: IOSVersion, rhs: IOSVersion) -> Bool {
        for index in 0..<max(lhs.parts.count, rhs.parts.count) {
            let (l, r) = (lhs.parts.count > index ? lhs.parts[index] : 0, rhs.parts.count > index ? rhs.parts[index] : 0)
            if l != r { return l < r }
        }
        return false
    }

    public var description: String { self.parts.map(String.init).joined(separator: ".") }

    /// Push-to-start tokens arrived in iOS 17.2.
    public static let pushToStart = IOSVersion(parts: [17, 2])
    /// `input-push-token` and `input-push-channel` (and broadcast channels) in iOS 18.
    public static let inputPush = IOSVersion(parts: [18, 0])
    /// Live Activities themselves, iOS 16.1.
    public static let liveActivities = IOSVersion(parts: [16, 1])

    init(parts: [Int]) { self.parts = parts }
}

/// When the pushes that draw from an app's budgets arrived, within the last hour.
public struct ActivityBudget: Codable, Hashable, Sendable {
    /// Priority 10 updates and ends.
    public var updates: [Int64] = []
    public var pushToStart: [Int64] = []

    public init() {}

    static let window: Int64 = 3_600_000

    /// Draws one from a budget of `limit` per hour: false when it is spent.
    mutating func spend(_ times: WritableKeyPath<ActivityBudget, [Int64]>, limit: Int, at now: Int64) -> Bool {
        self[keyPath: times].removeAll { $0 <= now - Self.window }
        guard self[keyPath: times].count < limit else { return false }
        self[keyPath: times].append(now)
        return true
    }
}

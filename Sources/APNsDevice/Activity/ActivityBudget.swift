/// When the pushes that draw from an app's budgets arrived, within the last hour.
public struct ActivityBudget: Codable, Hashable, Sendable {
    /// Priority 10 updates and ends, oldest first.
    public var updates: [Int64] = []
    /// Push-to-start pushes, oldest first.
    public var pushToStart: [Int64] = []

    public init() {}

    static let window: Int64 = 3_600_000

    /// Draws one from a budget of `limit` per hour: false when it is spent. The times stay in
    /// order (the clock never goes back; one that did is put in its place), so what left the hour
    /// is found by a binary search and a spend costs no scan of the hour's times: a broadcast
    /// spends once for each of an app's subscribed activities.
    mutating func spend(_ times: WritableKeyPath<ActivityBudget, [Int64]>, limit: Int, at now: Int64) -> Bool {
        Self.spend(&self[keyPath: times], limit: limit, at: now)
    }

    private static func spend(_ times: inout [Int64], limit: Int, at now: Int64) -> Bool {
        let cutoff = now - Self.window
        if let oldest = times.first, oldest <= cutoff {
            times.removeFirst(Self.firstIndex(in: times, after: cutoff))
        }
        guard times.count < limit else { return false }
        if let newest = times.last, newest > now {
            times.insert(now, at: Self.firstIndex(in: times, after: now))
        } else {
            times.append(now)
        }
        return true
    }

    /// The index of the first time after `time` in ordered `times` (their count if none is).
    private static func firstIndex(in times: [Int64], after time: Int64) -> Int {
        var (low, high) = (0, times.count)
        while low < high {
            let middle = (low + high) / 2
            if times[middle] <= time { low = middle + 1 } else { high = middle }
        }
        return low
    }
}

import Testing

@testable import APNsDevice

/// The hourly budgets a Live Activity's priority 10 updates and push-to-start pushes draw from.
/// Apple: "the system imposes a budget" on priority 10 updates, counted over an hour
/// (developer.apple.com, "Updating and ending your Live Activity with ActivityKit push
/// notifications"); the numbers are the emulator's, as in ActivityLifecycleTests.
@Suite("Live Activities: the hourly budget's window")
struct ActivityBudgetTests {
    static let hour: Int64 = 3_600_000
    let start: Int64 = 1_800_000_000_000

    @Test("a spend leaves the hour exactly an hour later, and not a millisecond before")
    func window() {
        var budget = ActivityBudget()
        func spend(_ at: Int64) -> Bool { budget.spend(\.updates, limit: 3, at: self.start + at) }
        #expect([spend(0), spend(10), spend(20)] == [true, true, true])
        #expect(!spend(Self.hour - 1), "all three are within the hour")
        #expect(spend(Self.hour), "the first has left it")
        #expect(!spend(Self.hour + 9))
        #expect(spend(Self.hour + 10))
        #expect(budget.updates == [self.start + 20, self.start + Self.hour, self.start + Self.hour + 10])
        #expect(budget.pushToStart.isEmpty, "each budget is its own")
    }

    @Test("after a long quiet spell every old spend is forgotten at once, and the times stay in order")
    func forgetting() {
        var budget = ActivityBudget()
        func spend(_ at: Int64) -> Bool { budget.spend(\.updates, limit: 5000, at: self.start + at) }
        #expect((0..<1000).allSatisfy { spend(Int64($0)) })
        #expect(spend(Self.hour + 500))
        #expect(budget.updates.count == 500)
        #expect(budget.updates.first == self.start + 501)
        // A time older than the newest (a stored budget from before a clock was moved) takes its place.
        #expect(spend(600))
        #expect(budget.updates == budget.updates.sorted())
        #expect(budget.updates.count == 501)
    }
}

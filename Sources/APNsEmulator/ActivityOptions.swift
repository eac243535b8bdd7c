import APNsDevice
import ArgumentParser

/// `serve`'s Live Activity limits. Apple publishes none of these numbers, only that the limits
/// exist; the defaults are the emulator's choice (see the README), and each is a setting.
struct ActivityOptions: ParsableArguments {
    @Option(
        name: .customLong("activity-max-concurrent"),
        help:
            "Running Live Activities per app; more are refused (targetMaximumExceeded). (env: \(EnvironmentTwins.variable(for: "--activity-max-concurrent")))"
    )
    var maximumConcurrent = ActivityLimits().maximumConcurrent

    @Option(
        name: .customLong("activity-budget"),
        help:
            "Priority 10 Live Activity updates per app per hour; past it a push is ignored as budget exceeded (priority 5 is free). (env: \(EnvironmentTwins.variable(for: "--activity-budget")))"
    )
    var hourlyBudget = ActivityLimits().hourlyBudget

    @Option(
        name: .customLong("activity-frequent-budget"),
        help:
            "The same with NSSupportsLiveActivitiesFrequentUpdates declared and allowed. (env: \(EnvironmentTwins.variable(for: "--activity-frequent-budget")))"
    )
    var frequentHourlyBudget = ActivityLimits().frequentHourlyBudget

    @Option(
        name: .customLong("activity-push-to-start-budget"),
        help: "Push-to-start pushes per app per hour. (env: \(EnvironmentTwins.variable(for: "--activity-push-to-start-budget")))"
    )
    var pushToStartHourlyBudget = ActivityLimits().pushToStartHourlyBudget

    func validate() throws {
        for (flag, value) in [
            ("--activity-max-concurrent", self.maximumConcurrent), ("--activity-budget", self.hourlyBudget),
            ("--activity-frequent-budget", self.frequentHourlyBudget),
            ("--activity-push-to-start-budget", self.pushToStartHourlyBudget),
        ] where value < 0 {
            throw ValidationError("\(flag) must be 0 or more, not \(value)")
        }
    }

    var limits: ActivityLimits {
        var limits = ActivityLimits()
        limits.maximumConcurrent = self.maximumConcurrent
        limits.hourlyBudget = self.hourlyBudget
        limits.frequentHourlyBudget = self.frequentHourlyBudget
        limits.pushToStartHourlyBudget = self.pushToStartHourlyBudget
        return limits
    }
}

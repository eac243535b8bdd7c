import Foundation

/// The Scheduled Summary (iOS 15): the apps the user put in it (`scheduledDelivery`) have their
/// non-urgent notifications held for the next summary time, then presented together, the most
/// relevant first. Sources: Apple, "UNNotificationInterruptionLevel" (time-sensitive breaks
/// through the summary), `UNNotificationContent.relevanceScore` ("the system uses the score to
/// determine which notification to feature in the summary"), "Implementing communication
/// notifications" (they break through it by default), Apple Support, "Schedule a notification
/// summary on iPhone" (summary times; 8:00 and 18:00 at first).
public enum ScheduledSummary {
    /// The summary times a phone starts with.
    public static let defaultTimes = ["08:00", "18:00"]

    /// The first summary time after `millis`, on a phone in `timeZone` with `times` (`HH:MM`).
    public static func next(after millis: Int64, times: [String], timeZone: String) -> Int64? {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: timeZone) ?? TimeZone(secondsFromGMT: 0) ?? calendar.timeZone
        let start = Date(timeIntervalSince1970: Double(millis) / 1000)
        let dates = times.compactMap { Self.parse($0) }.compactMap { hour, minute in
            calendar.nextDate(
                after: start, matching: DateComponents(hour: hour, minute: minute, second: 0), matchingPolicy: .nextTime)
        }
        return dates.min().map { Int64(($0.timeIntervalSince1970 * 1000).rounded()) }
    }

    /// `HH:MM` as hour and minute; nil when it is not a time of day.
    static func parse(_ text: String) -> (Int, Int)? {
        let parts = text.split(separator: ":")
        guard parts.count == 2, parts.allSatisfy({ $0.count == 2 }), let hour = Int(parts[0]), let minute = Int(parts[1]),
            (0..<24).contains(hour), (0..<60).contains(minute)
        else { return nil }
        return (hour, minute)
    }

    /// Refuses summary times that are not 1 to 12 times of day as `HH:MM`.
    static func validate(_ times: [String]) throws(DeviceModelError) {
        guard (1...12).contains(times.count), times.allSatisfy({ Self.parse($0) != nil }) else {
            throw DeviceModelError(
                .invalid, field: "summaryTimes",
                "summaryTimes are 1 to 12 times of day as HH:MM (24-hour), such as 08:00 and 18:00")
        }
    }
}

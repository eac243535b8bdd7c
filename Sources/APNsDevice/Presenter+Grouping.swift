import APNsCore

/// Notification Center's stacks (by app and `thread-id`) and the summary under a stack. Sources:
/// Apple, WWDC18 "What's New in User Notifications" (grouped notifications; the summary reads
/// "N more notifications", with the notifications' `summary-arg` "from Ana and Ben", each counting
/// `summary-arg-count` items), and `UNNotificationContent.summaryArgument` and
/// `summaryArgumentCount` (iOS 12.0 to 15.0: deprecated, and ignored, since iOS 15).
extension Presenter {
    /// iOS 15 ignores `summary-arg` and `summary-arg-count`.
    static let summaryArgumentsUntil = IOSVersion(parts: [15, 0])

    /// Keeps the payload's `summary-arg` and `summary-arg-count` (a positive integer; 1 when
    /// absent) for a phone on iOS 12 to 14; on a later one notes that they are ignored.
    static func summaryArgument(of aps: JSONValue, app: AppModel, into presentation: inout Presentation) {
        guard let argument = aps["summary-arg"]?.string else { return }
        guard let version = IOSVersion(app.iosVersion), version < Self.summaryArgumentsUntil else {
            presentation.notes.append(
                "summary-arg is ignored: iOS 15 and later no longer summarize a stack with it (the phone runs \(app.iosVersion))")
            return
        }
        presentation.summaryArgument = argument
        var count = 1
        if let number = aps["summary-arg-count"]?.number, number >= 1, number < 1e9, number == number.rounded() {
            count = Int(number)
        }
        presentation.summaryArgumentCount = count
    }

    /// The summary under a stack of `presentations` (newest first) whose newest is shown on top:
    /// "2 more notifications", or on iOS 12 to 14 with the others' `summary-arg` "3 more
    /// notifications from Ana and Ben"; nil for a stack of one.
    public static func stackSummary(_ presentations: [Presentation]) -> String? {
        let rest = presentations.dropFirst()
        guard !rest.isEmpty else { return nil }
        let count = rest.reduce(0) { $0 + ($1.summaryArgumentCount ?? 1) }
        var names: [String] = []
        for name in rest.compactMap(\.summaryArgument) where !name.isEmpty && !names.contains(name) { names.append(name) }
        let more = "\(count) more notification\(count == 1 ? "" : "s")"
        guard let last = names.last else { return more }
        let list = names.count == 1 ? last : names.dropLast().joined(separator: ", ") + " and " + last
        return "\(more) from \(list)"
    }
}

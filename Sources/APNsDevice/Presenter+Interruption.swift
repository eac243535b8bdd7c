import APNsCore

/// The interruption level (iOS 15) and quiet delivery: what lowers a level, and what a quiet
/// notification gives up. Sources: Apple, "UNNotificationInterruptionLevel" (passive: added to
/// the notification list without lighting the screen or playing a sound; critical: bypasses the
/// mute switch), "Asking permission to use notifications" (provisional: delivered quietly, to
/// Notification Center only), and the payload keys in "Generating a remote notification".
extension Presenter {
    /// The level the phone applies: the payload's `interruption-level`, or `active` when it names
    /// none, names none iOS knows, or names one the app may not use (the reason in `notes`).
    static func interruptionLevel(of aps: JSONValue, app: AppModel, notes: inout [String]) -> InterruptionLevel {
        guard let value = aps["interruption-level"] else { return .active }
        guard let name = value.string, let level = InterruptionLevel(rawValue: name) else {
            notes.append("interruption-level is not passive, active, time-sensitive or critical, so it is presented as active")
            return .active
        }
        // What each level beyond active needs: the app's entitlement, then the user's setting.
        let needs: (AppEntitlement, String, Bool, String)? =
            switch level {
            case .timeSensitive:
                (
                    .timeSensitive, "the Time Sensitive Notifications capability", app.authorization.timeSensitive,
                    "the user turned Time Sensitive Notifications off for the app"
                )
            case .critical:
                (
                    .criticalAlerts, "Apple's critical-alerts entitlement", app.authorization.criticalAlert,
                    "the user has not allowed critical alerts for the app"
                )
            case .passive, .active: nil
            }
        guard let (entitlement, capability, allowed, refused) = needs else { return level }
        guard app.entitlements.contains(entitlement) else {
            notes.append(
                "\(level.rawValue) needs \(capability) (entitlement \(entitlement.rawValue)), which the app lacks, so it is presented as active"
            )
            return .active
        }
        guard allowed else {
            notes.append("\(refused), so it is presented as active")
            return .active
        }
        return level
    }

    /// The interruption level applied (into `presentation`) to what is `allowed`: a quiet
    /// delivery holds the sound (and, provisional, the badge); a critical alert's sound plays
    /// with the user's critical-alert authorization, not the sound setting. Returns the sound to
    /// play (a critical alert's in place of the payload's) and, when delivery is quiet, why.
    static func applyLevel(
        _ aps: JSONValue, app: AppModel, topic: String?, at millis: Int64, sound: String?,
        allowed: inout (alert: String?, sound: String?, badge: String?), into presentation: inout Presentation
    ) -> (sound: String?, quiet: QuietDelivery?) {
        let level = Self.interruptionLevel(of: aps, app: app, notes: &presentation.notes)
        presentation.interruptionLevel = level
        let criteria = aps["filter-criteria"]?.string
        presentation.relevanceScore = aps["relevance-score"]?.number.flatMap { (0...1).contains($0) ? $0 : nil }
        let quiet =
            app.authorization.status == .denied
            ? nil : Self.quiet(level, app: app, topic: topic, criteria: criteria, at: millis, into: &presentation)
        if let quiet {
            allowed.sound = allowed.sound ?? quiet.reason
            if quiet.heldBy == "provisional" { allowed.badge = allowed.badge ?? quiet.reason }
        }
        if level == .critical, let name = Self.criticalSound(aps, notes: &presentation.notes) {
            allowed.sound = nil
            return (name, quiet)
        }
        return (sound, quiet)
    }

    /// Why a notification at `level` to `app` is delivered quietly, and what held it, when it is:
    /// the app's provisional authorization, its level (passive), or a Focus that does not allow
    /// the app (unless it breaks through: noted in `presentation`). Nil when it interrupts.
    static func quiet(
        _ level: InterruptionLevel, app: AppModel, topic: String?, criteria: String?, at millis: Int64,
        into presentation: inout Presentation
    ) -> QuietDelivery? {
        if app.authorization.status == .provisional {
            return QuietDelivery(
                reason: "provisional authorization delivers quietly: Notification Center only, with Keep and Turn Off",
                heldBy: "provisional")
        }
        if let summary = Self.summary(level, app: app, at: millis, into: &presentation) { return summary }
        if level == .passive {
            return QuietDelivery(
                reason: "interruption-level passive adds it to Notification Center without a sound or lighting the screen")
        }
        guard let focus = app.focus else { return nil }
        let filtered = focus.filtered(topic, criteria: criteria)
        guard !focus.allows(topic) || filtered != nil else { return nil }
        let holder = focus.allows(topic) ? "the app's Focus filter" : "the Focus \(focus.name), which does not allow the app"
        if let sender = presentation.communication?.sender, focus.allowedPeople.contains(sender.handle) {
            presentation.brokeThrough = true
            presentation.notes.append(
                "a message from \(sender.displayName), whom the Focus \(focus.name) allows: broke through \(holder)")
            return nil
        }
        if level == .critical || (level == .timeSensitive && focus.timeSensitive) {
            presentation.brokeThrough = true
            presentation.notes.append("\(level.rawValue): broke through \(holder)")
            return nil
        }
        let why = level == .timeSensitive ? " (its Time Sensitive Notifications switch is off)" : ""
        if focus.allows(topic), let filtered {
            return QuietDelivery(reason: "\(filtered)\(why): delivered quietly to Notification Center", heldBy: "focusFilter")
        }
        return QuietDelivery(
            reason: "the Focus \(focus.name) does not allow the app\(why): delivered quietly to Notification Center",
            heldBy: "focus")
    }

    /// A critical alert's sound (`{"critical": 1, "name", "volume"}`): it plays whatever the
    /// user's sound setting, through the mute switch; the volume is noted.
    static func criticalSound(_ aps: JSONValue, notes: inout [String]) -> String? {
        guard case .object = aps["sound"], let name = aps["sound"]?["name"]?.string, !name.isEmpty else { return nil }
        let volume = aps["sound"]?["volume"]?.number.map { " at volume \($0)" } ?? ""
        notes.append("critical alert: its sound plays through the mute switch and any Focus\(volume)")
        return name
    }

    /// An app the user put in the Scheduled Summary (``ScheduledSummary``): its passive and active
    /// notifications wait for the next summary time (`summaryAt`); time-sensitive, critical and
    /// communication notifications (while the user's Direct Messages switch is on), and the app's
    /// own in the foreground, do not.
    static func summary(
        _ level: InterruptionLevel, app: AppModel, at millis: Int64, into presentation: inout Presentation
    ) -> QuietDelivery? {
        guard app.authorization.scheduledDelivery, app.appState != .foreground else { return nil }
        let direct = presentation.communication != nil && app.authorization.directMessages
        if presentation.communication != nil, !direct {
            presentation.notes.append(
                "a communication notification, but the user turned the app's Direct Messages off: held for the Scheduled Summary")
        }
        guard level == .active || level == .passive, !direct else {
            let what = direct ? "a communication notification (Direct Messages on)" : level.rawValue
            presentation.notes.append("\(what): not held for the Scheduled Summary the user put the app in")
            return nil
        }
        guard let at = ScheduledSummary.next(after: millis, times: app.summaryTimes, timeZone: app.timeZone) else { return nil }
        presentation.summaryAt = at
        return QuietDelivery(
            reason: "the user put the app in the Scheduled Summary: held for the next summary, at summaryAt", heldBy: "summary")
    }
}

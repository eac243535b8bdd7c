import APNsCore

/// What the phone does with the push types that wake part of an app instead of showing
/// anything: widgets and controls reload (within a budget), a PushToTalk channel hears its
/// remote participant or a service update, a location push service extension runs (with
/// "always" location authorization only), a complication, a file provider or the MDM agent is
/// told. Pure: the same inputs give the same outcome and app.
///
/// Sources: "Updating widgets with WidgetKit push notifications" and "Keeping a widget up to
/// date" (WidgetKit); "Updating controls locally and remotely" (controls, iOS 18); PushToTalk's
/// `incomingPushResult(channelManager:channelUUID:pushPayload:)` and, for `ptt-push-type:
/// service-update`, `incomingServiceUpdatePush(...)` with `isHighPriority` (Apple Developer Forums
/// thread 787878); "Creating a location push service extension" (CoreLocation).
public enum PushWake {
    /// Whether the phone wakes something for `pushType` rather than presenting it.
    public static func handles(_ pushType: PushType) -> Bool {
        [.widgets, .controls, .pushtotalk, .location, .complication, .fileprovider, .mdm, .voip].contains(pushType)
    }

    public static func wake(
        pushType: PushType, payload: [UInt8], priority: Priority, at millis: Int64, app: AppModel
    ) -> (Presentation, AppModel) {
        let aps = JSONValue.member("aps", ofObjectIn: payload) ?? .object([:])
        var app = app
        var presentation = Presentation()
        presentation.silent = true
        let outcome: WakeOutcome
        switch pushType {
        case .widgets:
            outcome = Self.reload(
                &app.widgetPushes, "widgets", "WidgetKit reloads the app's widget timelines", aps: aps, at: millis, app: app,
                pushType: pushType)
        case .controls:
            outcome = Self.reload(
                &app.controlPushes, "controls", "the app's controls reload their values", aps: aps, at: millis, app: app,
                pushType: pushType)
        case .pushtotalk:
            outcome = Self.pushToTalk(payload: payload, aps: aps, priority: priority)
        case .location:
            outcome = Self.location(app)
        case .voip:
            outcome = app.voipPushes.receive()
        case .complication:
            outcome = WakeOutcome(
                pushType: "complication", target: "complication", outcome: .woken,
                detail: "PushKit hands the payload to the watch app's complication, which updates its data")
        case .fileprovider:
            outcome = WakeOutcome(
                pushType: "fileprovider", target: "fileProviderExtension", outcome: .woken,
                detail: "the file provider extension is told its content changed and enumerates again")
        default:
            let magic = JSONValue.member("mdm", ofObjectIn: payload)?.string
            outcome = WakeOutcome(
                pushType: "mdm", target: "mdmAgent", outcome: .woken,
                detail: "the device's MDM agent is told to contact its MDM server", facts: magic.map { ["pushMagic": $0] } ?? [:])
        }
        presentation.appNotified = outcome.outcome != .notWoken && outcome.outcome != .deferred
        presentation.wake = outcome
        return (presentation, app)
    }

    private static func reload(
        _ budget: inout ReloadBudget, _ target: String, _ what: String, aps: JSONValue, at millis: Int64, app: AppModel,
        pushType: PushType
    ) -> WakeOutcome {
        if let missing = Self.unsupported(pushType, on: app) {
            return WakeOutcome(pushType: pushType.rawValue, target: target, outcome: .notWoken, detail: missing)
        }
        guard aps["content-changed"] == .bool(true) else {
            return WakeOutcome(
                pushType: pushType.rawValue, target: target, outcome: .notWoken,
                detail: "the payload has no \"content-changed\": true in aps, so nothing reloads")
        }
        let free = app.appState == .foreground
        let now = budget.take(at: millis, free: free)
        let facts = [
            "reloadsToday": String(budget.reloads.count), "budgetPerDay": String(budget.perDay),
            "deferred": String(budget.deferred),
        ]
        guard now else {
            return WakeOutcome(
                pushType: pushType.rawValue, target: target, outcome: .deferred,
                detail: "the \(budget.perDay) pushed reloads of the last 24 hours are spent: the system puts this one off",
                facts: facts)
        }
        return WakeOutcome(
            pushType: pushType.rawValue, target: target, outcome: .reloaded,
            detail: what + (free ? " (the app is in the foreground: not counted)" : ""), facts: facts)
    }

    /// Why the device takes no `pushType` (widgets or controls) push, if it takes none: its
    /// platform has no push handler for it, or not in the version it runs (``DevicePlatform``).
    static func unsupported(_ pushType: PushType, on app: AppModel) -> String? {
        let platform = app.platform
        let (since, handler) =
            pushType == .widgets
            ? (Optional(platform.widgetPushSince), "WidgetPushHandler") : (platform.controlPushSince, "ControlPushHandler")
        guard let since else { return "\(platform.rawValue) has no \(handler): its controls take no pushes" }
        guard let running = IOSVersion(app.iosVersion), running >= since else {
            return
                "\(pushType.rawValue) pushes need \(handler), \(platform.rawValue) \(since) or later; the device runs \(platform.rawValue) \(app.iosVersion)"
        }
        return nil
    }

    private static func pushToTalk(payload: [UInt8], aps: JSONValue, priority: Priority) -> WakeOutcome {
        if aps["ptt-push-type"]?.string == "service-update" {
            return WakeOutcome(
                pushType: "pushtotalk", target: "pushToTalkChannel", outcome: .woken,
                detail: "incomingServiceUpdatePush: the app updates its Push to Talk service",
                facts: ["isHighPriority": priority == .immediate ? "true" : "false"])
        }
        let speaker =
            JSONValue.member("activeSpeaker", ofObjectIn: payload)?.string
            ?? JSONValue.member("activeRemoteParticipant", ofObjectIn: payload)?.string
        guard let speaker else {
            return WakeOutcome(
                pushType: "pushtotalk", target: "pushToTalkChannel", outcome: .woken,
                detail: "incomingPushResult: no active speaker in the payload, so the app answers leaveChannel")
        }
        return WakeOutcome(
            pushType: "pushtotalk", target: "pushToTalkChannel", outcome: .woken,
            detail: "incomingPushResult: activeRemoteParticipant: the system shows \(speaker) speaking",
            facts: ["activeRemoteParticipant": speaker])
    }

    private static func location(_ app: AppModel) -> WakeOutcome {
        guard app.locationAuthorization == .authorizedAlways else {
            return WakeOutcome(
                pushType: "location", target: "locationPushServiceExtension", outcome: .notWoken,
                detail:
                    "the location push service extension runs only with \"always\" location authorization; the app has \(app.locationAuthorization.rawValue)"
            )
        }
        return WakeOutcome(
            pushType: "location", target: "locationPushServiceExtension", outcome: .woken,
            detail: "didReceiveLocationPushPayload: the extension reads the device's location and reports it")
    }
}

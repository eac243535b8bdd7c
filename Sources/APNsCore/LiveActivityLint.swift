/// What a Live Activity push or broadcast carries that ActivityKit ignores: a payload shaped like
/// an alert push's (`aps.sound`, `aps.badge`, a string `alert`) is accepted by APNs and answered
/// 200, and then the device plays no sound and changes no badge. Sources: Apple, "Starting and
/// updating Live Activities with ActivityKit push notifications" (the `aps` members an
/// ActivityKit push has, and its `alert` of `title`, `body` and `sound`); Apple staff in developer
/// forums thread 799195 (on a Live Activity the alert is a dictionary of title, body and sound;
/// the top-level sound plays nothing).
public enum LiveActivityLint {
    /// The warnings' code (the metric's label).
    public static let code = "liveactivity-ignored"

    /// The `aps` members ActivityKit reads, in every event (start, update, end) and for broadcasts.
    public static let activityKitMembers: Set<String> = [
        "timestamp", "event", "content-state", "stale-date", "dismissal-date", "alert", "relevance-score",
        "attributes-type", "attributes", "input-push-token", "input-push-channel",
    ]
    /// The members of a Live Activity's `alert`.
    public static let alertMembers: Set<String> = ["title", "body", "sound"]

    /// One warning per ignored field, in the payload's order of names (sorted, for a stable answer).
    /// Nothing when the payload has no `aps` dictionary (validation has said what is wrong then).
    public static func warnings(payload: [UInt8]) -> [PushWarning] {
        guard case .object(let aps)? = JSONValue.member("aps", ofObjectIn: payload) else { return [] }
        var warnings: [PushWarning] = []
        for name in aps.keys.sorted() where !self.activityKitMembers.contains(name) {
            warnings.append(.init(self.code, self.explanation(ignoring: name)))
        }
        switch aps["alert"] {
        case .object(let alert)?:
            for name in alert.keys.sorted() where !self.alertMembers.contains(name) {
                warnings.append(
                    .init(self.code, "ActivityKit ignores alert.\(name): a Live Activity's alert has only title, body and sound"))
            }
        case .string?:
            warnings.append(
                .init(
                    self.code,
                    "a string alert is not a Live Activity's alert, a dictionary of title, body and sound: it has no title and plays no sound; send {\"title\", \"body\", \"sound\"}"
                ))
        default:
            break
        }
        return warnings
    }

    /// A broadcast's warnings: its payload's, and the push headers it carries that the broadcast
    /// API does not read. Apple's "Sending broadcast push notification requests to APNs" lists
    /// apns-channel-id, apns-expiration, apns-priority, apns-push-type, apns-request-id and
    /// authorization; APNs answers 200 whatever else comes along, so the emulator accepts them too
    /// and says they did nothing.
    public static func broadcastWarnings(_ request: PushRequest) -> [PushWarning] {
        var warnings = self.warnings(payload: request.body)
        if request.topic != nil {
            warnings.append(
                .init(
                    "broadcast-header",
                    "a broadcast does not read apns-topic: the bundle id is the one in its path (/4/broadcasts/apps/<bundle id>)")
            )
        }
        if request.collapseID != nil {
            warnings.append(
                .init(
                    "broadcast-header",
                    "a broadcast does not read apns-collapse-id: the channel's message-storage-policy decides what is kept (1: the latest)"
                ))
        }
        return warnings
    }

    private static func explanation(ignoring name: String) -> String {
        switch name {
        case "sound":
            return "ActivityKit ignores aps.sound: a Live Activity plays alert.sound, inside an alert of title and body"
        case "badge":
            return "ActivityKit ignores aps.badge: a Live Activity push does not change the app's badge"
        default:
            return "ActivityKit ignores aps.\(PushLint.short(name)) on a Live Activity push"
        }
    }
}

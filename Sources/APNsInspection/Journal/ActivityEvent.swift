import APNsCore
import APNsDevice

/// One change to a Live Activity, as the event stream tells it (`event: activity`): `started`,
/// `updated`, `ignored`, `stale`, `ended`, `dismissed`, or `token` (a token issued: an activity's
/// update token, or the app's push-to-start token when `activityId` is null).
public struct ActivityEvent: Hashable, Sendable {
    public var change: ActivityChange.Kind
    public var activityID: String?
    /// ActivityKit's state after the change.
    public var activityState: String?
    /// The app's bundle identifier and the device it is on.
    public var topic: String
    public var deviceID: String
    /// The push that caused it, if one did.
    public var uniqueID: String?
    /// Why a push was ignored.
    public var reason: String?
    /// The token issued, for `token`.
    public var token: String?

    public init(change: ActivityChange.Kind, activityID: String?, activityState: String?, topic: String, deviceID: String) {
        self.change = change
        self.activityID = activityID
        self.activityState = activityState
        self.topic = topic
        self.deviceID = deviceID
    }

    /// The event's JSON, as the stream's `data:` line carries it.
    public var json: String {
        var writer = JSONWriter()
        writer.object { members in
            members.member("change") { $0.string(self.change.rawValue) }
            members.member("activityId") { $0.optionalString(self.activityID) }
            members.member("activityState") { $0.optionalString(self.activityState) }
            members.member("topic") { $0.string(self.topic) }
            members.member("deviceId") { $0.string(self.deviceID) }
            members.member("uniqueId") { $0.optionalString(self.uniqueID) }
            members.member("reason") { $0.optionalString(self.reason) }
            members.member("token") { $0.optionalString(self.token) }
        }
        return String(decoding: writer.bytes, as: UTF8.self)
    }
}

import APNsCore

/// What the server sends to a device.
public enum DeviceServerMessage: Hashable, Sendable {
    case welcome(version: UInt8)
    case registered(topic: String, token: DeviceToken)
    case resumed([ResumeResult])
    case unregistered(topic: String, token: DeviceToken, timestamp: Int64)
    case notification(Notification)
    case pong(UInt64)
    case error(code: DeviceErrorCode, message: String)
    /// Version 2: the answer to `authorize`. `status` 0 notDetermined, 1 denied, 2 authorized.
    case authorization(topic: String, status: UInt8, options: UInt8, granted: Bool, prompted: Bool)
    /// Version 2: an app's settings and Notification Center as JSON (after `configure`, or when
    /// they change elsewhere).
    case app(topic: String, document: [UInt8])
    /// Version 2: how the phone presented a notification (JSON), right after the notification.
    case presented(uniqueID: String, document: [UInt8])
    /// Version 2: the user's response to a notification (JSON).
    case response(uniqueID: String, document: [UInt8])
    /// Version 2: a request refused without ending the session: `subject` is its topic or unique
    /// id, `status` an HTTP-like code (400 a bad request, 404 nothing there, 409 not offered).
    case refused(subject: String, status: UInt16, message: String)
    /// Version 2: the answer to `schedule` (JSON: `{"request", "evicted"}`, as the admin API's).
    case scheduled(topic: String, document: [UInt8])
    /// Version 2: the answer to `pending` (JSON: `{"total", "items"}`, as the admin API's).
    case pending(topic: String, document: [UInt8])
    /// Version 2: the answer to `cancel`: how many pending requests went.
    case cancelled(topic: String, removed: UInt16)
    /// Version 3: a Live Activity changed (JSON: `{"change", "reason", "activity"}`), as the
    /// answer to `start-activity` or `end-activity`, or on its own (a push, the clock).
    case activity(topic: String, document: [UInt8])
    /// Version 3: a token ActivityKit issued: an activity's update token (`pushTokenUpdates`), or
    /// the app's push-to-start token (`pushToStartTokenUpdates`, `activityID` nil).
    case activityToken(topic: String, activityID: String?, token: DeviceToken)
    /// Version 3: the answer to `activities` (JSON as `GET .../activities`).
    case activities(topic: String, document: [UInt8])
    /// Version 2: the device's power state (JSON `{"deviceId", "online", "lowPowerMode",
    /// "locked"}`), as an answer to `power` and whenever the admin API changes it.
    case power(document: [UInt8])
    /// Version 2: the answer to `web-app` (JSON: the web app, the list, or what was shown).
    case webApp(document: [UInt8])
    /// Version 4: the phone asks the app's service extension on this device for the content to
    /// show (the JSON a command extension gets); the device answers with `extended`.
    case extend(uniqueID: String, document: [UInt8])

    /// The subject of a `refused` answering `web-app`.
    public static let webAppSubject = "web-app"
}

import APNsCore

/// What a device sends (docs/device-protocol.md).
public enum DeviceClientMessage: Hashable, Sendable {
    case hello(version: UInt8, deviceID: String)
    case register(topic: String)
    case resume(tokens: [DeviceToken])
    case unregister(topic: String)
    case ack(uniqueID: String)
    case ping(UInt64)
    /// Version 2: the app asks for `options` (``AuthorizationOptionBits``); `allow` is what the
    /// emulated user answers if asked.
    case authorize(topic: String, options: UInt8, allow: Bool)
    /// Version 2: the app changes its own settings (a JSON document: categories, app state,
    /// foreground options, language, strings, sounds, badge).
    case configure(topic: String, document: [UInt8])
    /// Version 2: the user responds to a notification on screen; `context` 0 = the one it was
    /// shown in, 1 = banner, 2 = alert.
    case respond(uniqueID: String, action: String, text: String?, context: UInt8)
    /// Version 2: the app schedules a local notification (a JSON document: `identifier`,
    /// `content`, `trigger`, as the admin API's `POST .../pending`).
    case schedule(topic: String, document: [UInt8])
    /// Version 2: the app lists its pending local notifications.
    case listPending(topic: String)
    /// Version 2: the app cancels one pending local notification, or all of them (nil).
    case cancel(topic: String, identifier: String?)
    /// Version 3: the app declares its Live Activity types (JSON: the app document's
    /// `activityTypes`, `{"<Name>": {"attributes": {...}, "contentState": {...}}}`).
    case declareActivities(topic: String, document: [UInt8])
    /// Version 3: the app starts a Live Activity (`Activity.request`; JSON as the admin API's
    /// `POST .../activities`).
    case startActivity(topic: String, document: [UInt8])
    /// Version 3: the app ends one of its activities (JSON as `POST /api/v1/activities/<id>/end`).
    case endActivity(topic: String, activityID: String, document: [UInt8])
    /// Version 3: the app lists its activities.
    case listActivities(topic: String)
    /// Version 2: changes the device's power and connectivity (JSON: any of `online`,
    /// `lowPowerMode`, `locked`); `{}` only asks.
    case power(document: [UInt8])
}

extension DeviceClientMessage {
    /// Whether the message exists only from protocol version 2 on.
    public var needsVersion2: Bool {
        switch self {
        case .authorize, .configure, .respond, .schedule, .listPending, .cancel, .power: true
        default: self.needsVersion3
        }
    }

    /// Whether the message exists only from protocol version 3 on (Live Activities).
    public var needsVersion3: Bool {
        switch self {
        case .declareActivities, .startActivity, .endActivity, .listActivities: true
        default: false
        }
    }

    /// The message's name, as the protocol document calls it.
    public var name: String {
        switch self {
        case .hello: "hello"
        case .register: "register"
        case .resume: "resume"
        case .unregister: "unregister"
        case .ack: "ack"
        case .ping: "ping"
        case .authorize: "authorize"
        case .configure: "configure"
        case .respond: "respond"
        case .schedule: "schedule"
        case .listPending: "pending"
        case .cancel: "cancel"
        case .declareActivities: "activity-types"
        case .startActivity: "start-activity"
        case .endActivity: "end-activity"
        case .listActivities: "activities"
        case .power: "power"
        }
    }
}

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
}

/// How the server took one token a device presented in `resume`.
public struct ResumeResult: Hashable, Sendable {
    public enum Status: UInt8, Sendable {
        case resumed = 0
        case unknown = 1
        case unregistered = 2
    }

    public var token: DeviceToken
    public var status: Status

    public init(token: DeviceToken, status: Status) {
        self.token = token
        self.status = status
    }
}

/// Limits of the device protocol.
public enum DeviceProtocol {
    /// The newest protocol version; version 1 sessions work as before.
    public static let version: UInt8 = 3
    public static let versions: ClosedRange<UInt8> = 1...3
    /// The largest frame length (type byte plus body).
    public static let maximumFrameLength = 65_536
    /// The longest device id and topic, in bytes.
    public static let maximumIdentifierLength = 128
    public static let maximumTopicLength = 255
}

/// Message type bytes.
enum DeviceMessageType {
    static let hello: UInt8 = 0x01
    static let register: UInt8 = 0x02
    static let resume: UInt8 = 0x03
    static let unregister: UInt8 = 0x04
    static let ack: UInt8 = 0x05
    static let ping: UInt8 = 0x06
    static let authorize: UInt8 = 0x07
    static let configure: UInt8 = 0x08
    static let respond: UInt8 = 0x09
    static let schedule: UInt8 = 0x0A
    static let listPending: UInt8 = 0x0B
    static let cancel: UInt8 = 0x0C
    static let declareActivities: UInt8 = 0x0D
    static let startActivity: UInt8 = 0x0E
    static let endActivity: UInt8 = 0x0F
    static let listActivities: UInt8 = 0x10
    static let power: UInt8 = 0x11
    static let welcome: UInt8 = 0x81
    static let registered: UInt8 = 0x82
    static let resumed: UInt8 = 0x83
    static let unregistered: UInt8 = 0x84
    static let notification: UInt8 = 0x85
    static let pong: UInt8 = 0x86
    static let authorization: UInt8 = 0x87
    static let app: UInt8 = 0x88
    static let presented: UInt8 = 0x89
    static let response: UInt8 = 0x8A
    static let refused: UInt8 = 0x8B
    static let scheduled: UInt8 = 0x8C
    static let pending: UInt8 = 0x8D
    static let cancelled: UInt8 = 0x8E
    static let error: UInt8 = 0x8F
    static let activity: UInt8 = 0x90
    static let activityToken: UInt8 = 0x91
    static let activities: UInt8 = 0x92
    static let powerState: UInt8 = 0x93
}

import APNsCore

extension DeviceClientMessage {
    /// Whether the message exists only from protocol version 2 on.
    public var needsVersion2: Bool {
        switch self {
        case .authorize, .configure, .respond, .schedule, .listPending, .cancel, .power, .webApp: true
        default: self.needsVersion3
        }
    }

    /// Whether the message exists only from protocol version 3 on (Live Activities).
    public var needsVersion3: Bool {
        switch self {
        case .declareActivities, .startActivity, .endActivity, .listActivities: true
        default: self.needsVersion4
        }
    }

    /// Whether the message exists only from protocol version 4 on (the service extension).
    public var needsVersion4: Bool {
        if case .extended = self { return true }
        return false
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
        case .webApp: "web-app"
        case .extended: "extended"
        }
    }
}

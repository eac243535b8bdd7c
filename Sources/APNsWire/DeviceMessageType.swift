import APNsCore

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
    static let webApp: UInt8 = 0x12
    static let extended: UInt8 = 0x13
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
    static let webAppAnswer: UInt8 = 0x94
    static let extend: UInt8 = 0x95
}

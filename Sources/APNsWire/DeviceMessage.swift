import APNsCore

/// What a device sends (docs/device-protocol.md).
public enum DeviceClientMessage: Hashable, Sendable {
    case hello(version: UInt8, deviceID: String)
    case register(topic: String)
    case resume(tokens: [DeviceToken])
    case unregister(topic: String)
    case ack(uniqueID: String)
    case ping(UInt64)
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
    /// The only protocol version so far.
    public static let version: UInt8 = 1
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
    static let welcome: UInt8 = 0x81
    static let registered: UInt8 = 0x82
    static let resumed: UInt8 = 0x83
    static let unregistered: UInt8 = 0x84
    static let notification: UInt8 = 0x85
    static let pong: UInt8 = 0x86
    static let error: UInt8 = 0x8F
}

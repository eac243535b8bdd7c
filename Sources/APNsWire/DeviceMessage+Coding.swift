import APNsCore
import NIOCore

extension DeviceClientMessage {
    /// Parses a frame a device sent.
    public init(frame: DeviceFrame) throws {
        var body = DeviceBodyReader(buffer: frame.body)
        switch frame.type {
        case DeviceMessageType.hello:
            let (version, deviceID) = (try body.u8(), try body.string())
            self = .hello(version: version, deviceID: deviceID, credential: body.hasMore ? try body.string() : nil)
        case DeviceMessageType.register:
            let topic = try body.string()
            self = .register(topic: topic, environment: body.hasMore ? try Self.environment(try body.u8()) : nil)
        case DeviceMessageType.resume:
            let count = Int(try body.u16())
            var tokens: [DeviceToken] = []
            tokens.reserveCapacity(min(count, 1024))
            for _ in 0..<count { tokens.append(try body.token()) }
            self = .resume(tokens: tokens)
        case DeviceMessageType.unregister:
            self = .unregister(topic: try body.string())
        case DeviceMessageType.ack:
            self = .ack(uniqueID: try body.string())
        case DeviceMessageType.ping:
            self = .ping(try body.u64())
        case DeviceMessageType.authorize:
            self = .authorize(topic: try body.string(), options: try body.u8(), allow: try body.flag())
        case DeviceMessageType.configure:
            self = .configure(topic: try body.string(), document: try body.payload())
        case DeviceMessageType.respond:
            self = .respond(
                uniqueID: try body.string(), action: try body.string(), text: try body.optionalString(), context: try body.u8())
        case DeviceMessageType.schedule:
            self = .schedule(topic: try body.string(), document: try body.payload())
        case DeviceMessageType.listPending:
            self = .listPending(topic: try body.string())
        case DeviceMessageType.cancel:
            self = .cancel(topic: try body.string(), identifier: try body.optionalString())
        case DeviceMessageType.declareActivities...DeviceMessageType.listActivities:
            self = try Self.activityMessage(frame.type, &body)
        case DeviceMessageType.power:
            self = .power(document: try body.payload())
        case DeviceMessageType.webApp:
            self = .webApp(action: try body.string(), document: try body.payload())
        case DeviceMessageType.extended:
            self = .extended(uniqueID: try body.string(), document: try body.payload())
        default:
            throw DeviceProtocolError(.unknownMessage, "unknown message type 0x\(String(frame.type, radix: 16))")
        }
        try body.finish()
    }

    /// A register's environment byte: 0 development, 1 production.
    private static func environment(_ byte: UInt8) throws -> APNsEnvironment {
        switch byte {
        case 0: return .development
        case 1: return .production
        default:
            throw DeviceProtocolError(
                .invalidArgument, "a register's environment is 0 (development) or 1 (production), not \(byte)")
        }
    }

    /// The frame for this message.
    public func frame(allocator: ByteBufferAllocator = ByteBufferAllocator()) -> DeviceFrame {
        var body = allocator.buffer(capacity: 64)
        let type: UInt8
        switch self {
        case .hello(let version, let deviceID, let credential):
            type = DeviceMessageType.hello
            body.writeHello(version: version, deviceID: deviceID, credential: credential)
        case .register(let topic, let environment):
            type = DeviceMessageType.register
            body.writeDeviceString(topic)
            if let environment { body.writeInteger(UInt8(environment == .production ? 1 : 0)) }
        case .resume(let tokens):
            type = DeviceMessageType.resume
            body.writeInteger(UInt16(tokens.count))
            for token in tokens { body.writeDeviceToken(token) }
        case .unregister(let topic):
            type = DeviceMessageType.unregister
            body.writeDeviceString(topic)
        case .ack(let uniqueID):
            type = DeviceMessageType.ack
            body.writeDeviceString(uniqueID)
        case .ping(let opaque):
            type = DeviceMessageType.ping
            body.writeInteger(opaque)
        case .authorize(let topic, let options, let allow):
            type = DeviceMessageType.authorize
            body.writeDeviceString(topic)
            body.writeInteger(options)
            body.writeInteger(UInt8(allow ? 1 : 0))
        case .configure(let topic, let document), .schedule(let topic, let document), .webApp(let topic, let document),
            .extended(let topic, let document):
            // A string (the topic, web-app's action, the unique id), then a JSON document.
            type = self.documentType
            body.writeDeviceString(topic)
            body.writeDevicePayload(document)
        case .respond(let uniqueID, let action, let text, let context):
            type = DeviceMessageType.respond
            body.writeDeviceString(uniqueID)
            body.writeDeviceString(action)
            body.writeDeviceOptionalString(text)
            body.writeInteger(context)
        case .listPending(let topic):
            type = DeviceMessageType.listPending
            body.writeDeviceString(topic)
        case .cancel(let topic, let identifier):
            type = DeviceMessageType.cancel
            body.writeDeviceString(topic)
            body.writeDeviceOptionalString(identifier)
        case .declareActivities, .startActivity, .endActivity, .listActivities:
            type = self.writeActivity(into: &body)
        case .power(let document):
            type = DeviceMessageType.power
            body.writeDevicePayload(document)
        }
        return DeviceFrame(type: type, body: body)
    }

    /// The type of a message that is a string and a JSON document.
    private var documentType: UInt8 {
        switch self {
        case .configure: DeviceMessageType.configure
        case .schedule: DeviceMessageType.schedule
        case .extended: DeviceMessageType.extended
        default: DeviceMessageType.webApp
        }
    }
}

extension DeviceServerMessage {
    /// Parses a frame the server sent.
    public init(frame: DeviceFrame) throws {
        var body = DeviceBodyReader(buffer: frame.body)
        switch frame.type {
        case DeviceMessageType.welcome:
            self = .welcome(version: try body.u8())
        case DeviceMessageType.registered:
            self = .registered(topic: try body.string(), token: try body.token())
        case DeviceMessageType.resumed:
            self = .resumed(try Self.resumeResults(&body))
        case DeviceMessageType.unregistered:
            self = .unregistered(topic: try body.string(), token: try body.token(), timestamp: try body.i64())
        case DeviceMessageType.notification:
            self = .notification(try Self.notification(&body))
        case DeviceMessageType.pong:
            self = .pong(try body.u64())
        case DeviceMessageType.error:
            self = .error(code: DeviceErrorCode(rawValue: try body.u8()), message: try body.string())
        case DeviceMessageType.authorization:
            self = .authorization(
                topic: try body.string(), status: try body.u8(), options: try body.u8(), granted: try body.flag(),
                prompted: try body.flag())
        case DeviceMessageType.app:
            self = .app(topic: try body.string(), document: try body.payload())
        case DeviceMessageType.presented:
            self = .presented(uniqueID: try body.string(), document: try body.payload())
        case DeviceMessageType.response:
            self = .response(uniqueID: try body.string(), document: try body.payload())
        case DeviceMessageType.refused:
            self = .refused(subject: try body.string(), status: try body.u16(), message: try body.string())
        case DeviceMessageType.scheduled:
            self = .scheduled(topic: try body.string(), document: try body.payload())
        case DeviceMessageType.pending:
            self = .pending(topic: try body.string(), document: try body.payload())
        case DeviceMessageType.cancelled:
            self = .cancelled(topic: try body.string(), removed: try body.u16())
        case DeviceMessageType.activity...DeviceMessageType.activities:
            self = try Self.activityMessage(frame.type, &body)
        case DeviceMessageType.powerState:
            self = .power(document: try body.payload())
        case DeviceMessageType.webAppAnswer:
            self = .webApp(document: try body.payload())
        case DeviceMessageType.extend:
            self = .extend(uniqueID: try body.string(), document: try body.payload())
        default:
            throw DeviceProtocolError(.unknownMessage, "unknown message type 0x\(String(frame.type, radix: 16))")
        }
        try body.finish()
    }

    private static func notification(_ body: inout DeviceBodyReader) throws -> Notification {
        let uniqueID = try body.string()
        let apnsID = try body.string()
        let token = try body.token()
        let topic = try body.optionalString()
        guard let pushType = PushType(rawValue: try body.string()) else {
            throw DeviceProtocolError(.malformedFrame, "unknown push type")
        }
        guard let priority = Priority(rawValue: try body.u8()) else {
            throw DeviceProtocolError(.malformedFrame, "unknown priority")
        }
        let expiration = try body.i64()
        let collapseID = try body.optionalString()
        let receivedAt = try body.i64()
        guard let source = Interface(rawValue: try body.string()) else {
            throw DeviceProtocolError(.malformedFrame, "unknown source")
        }
        return Notification(
            apnsID: apnsID, uniqueID: uniqueID, token: token, topic: topic, pushType: pushType,
            priority: priority, expiration: expiration < 0 ? nil : expiration, collapseID: collapseID,
            payload: try body.payload(), receivedAt: receivedAt, source: source
        )
    }

    /// The frame for this message.
    public func frame(allocator: ByteBufferAllocator = ByteBufferAllocator()) -> DeviceFrame {
        var body = allocator.buffer(capacity: 64)
        let type: UInt8
        switch self {
        case .welcome(let version):
            type = DeviceMessageType.welcome
            body.writeInteger(version)
        case .registered(let topic, let token):
            type = DeviceMessageType.registered
            body.writeDeviceString(topic)
            body.writeDeviceToken(token)
        case .resumed(let results):
            type = DeviceMessageType.resumed
            Self.write(results, into: &body)
        case .unregistered(let topic, let token, let timestamp):
            type = DeviceMessageType.unregistered
            body.writeDeviceString(topic)
            body.writeDeviceToken(token)
            body.writeInteger(timestamp)
        case .notification(let notification):
            type = DeviceMessageType.notification
            Self.write(notification, into: &body)
        case .pong(let opaque):
            type = DeviceMessageType.pong
            body.writeInteger(opaque)
        case .error(let code, let message):
            type = DeviceMessageType.error
            body.writeInteger(code.rawValue)
            body.writeDeviceString(message)
        case .authorization(let topic, let status, let options, let granted, let prompted):
            type = DeviceMessageType.authorization
            body.writeDeviceString(topic)
            body.writeInteger(status)
            body.writeInteger(options)
            body.writeInteger(UInt8(granted ? 1 : 0))
            body.writeInteger(UInt8(prompted ? 1 : 0))
        case .app(let subject, let document), .presented(let subject, let document), .response(let subject, let document),
            .scheduled(let subject, let document), .pending(let subject, let document), .extend(let subject, let document):
            type = self.documentType
            body.writeDeviceString(subject)
            body.writeDevicePayload(document)
        case .refused(let subject, let status, let message):
            type = DeviceMessageType.refused
            body.writeDeviceString(subject)
            body.writeInteger(status)
            body.writeDeviceString(message)
        case .cancelled(let topic, let removed):
            type = DeviceMessageType.cancelled
            body.writeDeviceString(topic)
            body.writeInteger(removed)
        case .activity, .activityToken, .activities:
            type = self.writeActivity(into: &body)
        case .power(let document), .webApp(let document):
            type = if case .power = self { DeviceMessageType.powerState } else { DeviceMessageType.webAppAnswer }
            body.writeDevicePayload(document)
        }
        return DeviceFrame(type: type, body: body)
    }

    /// The type of a message that is a subject (a topic or a unique id) and a JSON document.
    private var documentType: UInt8 {
        switch self {
        case .app: DeviceMessageType.app
        case .presented: DeviceMessageType.presented
        case .response: DeviceMessageType.response
        case .scheduled: DeviceMessageType.scheduled
        case .extend: DeviceMessageType.extend
        default: DeviceMessageType.pending
        }
    }

    private static func write(_ notification: Notification, into body: inout ByteBuffer) {
        body.reserveCapacity(200 + notification.payload.count)
        body.writeDeviceString(notification.uniqueID)
        body.writeDeviceString(notification.apnsID)
        body.writeDeviceToken(notification.token)
        body.writeDeviceOptionalString(notification.topic)
        body.writeDeviceString(notification.pushType.rawValue)
        body.writeInteger(notification.priority.rawValue)
        body.writeInteger(notification.expiration ?? -1)
        body.writeDeviceOptionalString(notification.collapseID)
        body.writeInteger(notification.receivedAt)
        body.writeDeviceString(notification.source.rawValue)
        body.writeInteger(UInt32(notification.payload.count))
        body.writeBytes(notification.payload)
    }
}

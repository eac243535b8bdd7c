import APNsCore
import NIOCore

/// Version 3's Live Activity messages, read and written (docs/device-protocol.md).
extension DeviceClientMessage {
    static func activityMessage(_ type: UInt8, _ body: inout DeviceBodyReader) throws -> DeviceClientMessage {
        switch type {
        case DeviceMessageType.declareActivities:
            return .declareActivities(topic: try body.string(), document: try body.payload())
        case DeviceMessageType.startActivity: return .startActivity(topic: try body.string(), document: try body.payload())
        case DeviceMessageType.endActivity:
            return .endActivity(topic: try body.string(), activityID: try body.string(), document: try body.payload())
        default: return .listActivities(topic: try body.string())
        }
    }

    /// Writes a version-3 message's body; returns its type byte.
    func writeActivity(into body: inout ByteBuffer) -> UInt8 {
        switch self {
        case .declareActivities(let topic, let document):
            body.writeDeviceString(topic)
            body.writeDevicePayload(document)
            return DeviceMessageType.declareActivities
        case .startActivity(let topic, let document):
            body.writeDeviceString(topic)
            body.writeDevicePayload(document)
            return DeviceMessageType.startActivity
        case .endActivity(let topic, let activityID, let document):
            body.writeDeviceString(topic)
            body.writeDeviceString(activityID)
            body.writeDevicePayload(document)
            return DeviceMessageType.endActivity
        default:
            if case .listActivities(let topic) = self { body.writeDeviceString(topic) }
            return DeviceMessageType.listActivities
        }
    }
}

extension DeviceServerMessage {
    static func activityMessage(_ type: UInt8, _ body: inout DeviceBodyReader) throws -> DeviceServerMessage {
        switch type {
        case DeviceMessageType.activity: return .activity(topic: try body.string(), document: try body.payload())
        case DeviceMessageType.activityToken:
            return .activityToken(topic: try body.string(), activityID: try body.optionalString(), token: try body.token())
        default: return .activities(topic: try body.string(), document: try body.payload())
        }
    }

    /// Writes a version-3 message's body; returns its type byte.
    func writeActivity(into body: inout ByteBuffer) -> UInt8 {
        switch self {
        case .activity(let topic, let document):
            body.writeDeviceString(topic)
            body.writeDevicePayload(document)
            return DeviceMessageType.activity
        case .activityToken(let topic, let activityID, let token):
            body.writeDeviceString(topic)
            body.writeDeviceOptionalString(activityID)
            body.writeDeviceToken(token)
            return DeviceMessageType.activityToken
        default:
            if case .activities(let topic, let document) = self {
                body.writeDeviceString(topic)
                body.writeDevicePayload(document)
            }
            return DeviceMessageType.activities
        }
    }
}

import APNsCore
import APNsWire

/// The requests a version-2 or version-3 session makes of its device's phone, checked before they
/// go out as actions: web apps (version 2) and Live Activities (version 3).
extension DeviceSessionStateMachine {
    /// Version 2's `web-app`, once its action is one there is.
    mutating func webApp(deviceID: String, action: String, document: [UInt8]) -> Action {
        guard WebAppAction(rawValue: action) != nil else {
            return self.fail(
                .invalidArgument, "web-app's action is subscribe, list, unsubscribe, permission or show, not \(action.prefix(40))"
            )
        }
        return .webApp(deviceID: deviceID, action: action, document: document)
    }

    /// Version 3's Live Activity requests, once their topic is checked.
    mutating func activities(deviceID: String, version: UInt8, _ message: DeviceClientMessage) -> Action {
        guard version >= 3 else {
            return self.fail(
                .unexpectedMessage, "\(message.name) needs protocol version 3 (this session said hello with version \(version))")
        }
        let topic: String
        switch message {
        case .declareActivities(let name, _), .startActivity(let name, _), .endActivity(let name, _, _),
            .listActivities(let name):
            topic = name
        default: return self.fail(.unexpectedMessage, "\(message.name) is not a Live Activity request")
        }
        guard !topic.isEmpty, topic.utf8.count <= DeviceProtocol.maximumTopicLength else {
            return self.fail(.invalidArgument, "a topic has 1 to \(DeviceProtocol.maximumTopicLength) bytes")
        }
        return .activities(deviceID: deviceID, message)
    }
}

import APNsCore
import APNsWire

/// The requests a session of version 2 or later makes of its device's phone, checked before they
/// go out as actions: web apps (version 2), Live Activities (version 3), the service extension's
/// replies (version 4); and what the session is (its device, its version).
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

    /// Version 4: the service extension on this device handed back content for `uniqueID`.
    mutating func extended(deviceID: String, version: UInt8, uniqueID: String, document: [UInt8]) -> Action {
        guard version >= 4 else {
            return self.fail(
                .unexpectedMessage, "extended needs protocol version 4 (this session said hello with version \(version))")
        }
        return .extended(deviceID: deviceID, uniqueID: uniqueID, document: document)
    }

    /// The device the session speaks for (nil before hello).
    var deviceID: String? {
        guard case .active(let deviceID, _) = self.state else { return nil }
        return deviceID
    }

    /// The protocol version the session said hello with (0 before hello).
    var version: UInt8 {
        guard case .active(_, let version) = self.state else { return 0 }
        return version
    }
}

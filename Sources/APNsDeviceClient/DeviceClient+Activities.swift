import APNsCore
import APNsDevice
import APNsWire
import Foundation

/// Version 3: the apps on this device use ActivityKit: they declare their Live Activity types,
/// start, end and list activities; tokens and changes arrive as ``DeviceEvent``s.
extension DeviceClient {
    /// Declares the app's activity types (`{"<Name>": {"attributes": {...}, "contentState": {...}}}`,
    /// field types as the README lists them). On iOS 17.2 or later the app then gets its
    /// push-to-start token (an ``DeviceEvent/activityToken(topic:activityID:token:)`` event, and
    /// in the returned app). Returns the app afterwards.
    public func declareActivityTypes(topic: String, document: [UInt8]) async throws -> AppModel {
        let reply = try await self.request(.declareActivities(topic: topic, document: document), expecting: .app, subject: topic)
        guard case .app(_, let body) = reply else { throw DeviceClientError.unexpectedReply(reply) }
        return try JSONDecoder().decode(AppModel.self, from: Data(body))
    }

    /// `Activity.request`: `document` is `{"attributes-type", "attributes", "content-state",
    /// "pushType": "token"}`. Throws ``DeviceClientError/declined(status:message:)`` with 400
    /// when they do not decode, 409 when ActivityKit refuses (denied, targetMaximumExceeded).
    public func startActivity(topic: String, document: [UInt8]) async throws -> ActivitySnapshot {
        try await self.oneActivity(.startActivity(topic: topic, document: document), topic: topic)
    }

    /// `activity.end(_:dismissalPolicy:)`: `document` may give a final `content-state`, a
    /// `dismissalPolicy` (`default`, `immediate`) or a `dismissal-date`.
    public func endActivity(topic: String, id: String, document: [UInt8] = Array("{}".utf8)) async throws -> ActivitySnapshot {
        try await self.oneActivity(.endActivity(topic: topic, activityID: id, document: document), topic: topic)
    }

    /// The app's activities: running first, by relevance score.
    public func activities(topic: String) async throws -> [ActivitySnapshot] {
        let reply = try await self.request(.listActivities(topic: topic), expecting: .activities, subject: topic)
        guard case .activities(_, let body) = reply else { throw DeviceClientError.unexpectedReply(reply) }
        return try JSONDecoder().decode(ActivityList.self, from: Data(body)).items
    }

    private func oneActivity(_ message: DeviceClientMessage, topic: String) async throws -> ActivitySnapshot {
        let reply = try await self.request(message, expecting: .activities, subject: topic)
        guard case .activities(_, let body) = reply,
            let activity = try JSONDecoder().decode(ActivityList.self, from: Data(body)).items.first
        else {
            throw DeviceClientError.unexpectedReply(reply)
        }
        return activity
    }
}

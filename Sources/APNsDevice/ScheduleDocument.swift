import APNsCore
import Foundation

/// A request to schedule a local notification, as the admin API and the device protocol take it:
/// `{"identifier", "content": {"title", "subtitle", "body", "sound", "badge", "categoryIdentifier",
/// "threadIdentifier", "userInfo", "titleLocKey", "titleLocArgs", "locKey", "locArgs"}, "trigger"}`.
public struct ScheduleDocument: Codable, Sendable {
    public var identifier: String
    public var content: LocalContent
    public var trigger: NotificationTrigger

    public static let example =
        #"{"identifier": "reminder", "content": {"title": "Stand up"}, "trigger": {"type": "timeInterval", "seconds": 3600}}"#

    private enum CodingKeys: String, CodingKey, CaseIterable { case identifier, content, trigger }
    private enum ContentKeys: String, CodingKey, CaseIterable {
        case title, subtitle, body, titleLocKey, titleLocArgs, locKey, locArgs, sound, badge, categoryIdentifier,
            threadIdentifier, userInfo
    }

    public init(identifier: String, content: LocalContent, trigger: NotificationTrigger) {
        (self.identifier, self.content, self.trigger) = (identifier, content, trigger)
    }

    public init(from decoder: any Decoder) throws {
        try decoder.refuseUnknown(CodingKeys.self, in: "a local notification request")
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.identifier = try container.decode(String.self, forKey: .identifier)
        guard !self.identifier.isEmpty, self.identifier.utf8.count <= 200 else {
            throw DeviceModelError(.invalid, field: "identifier", "identifier must have 1 to 200 bytes")
        }
        let content = try container.superDecoder(forKey: .content)
        try content.refuseUnknown(ContentKeys.self, in: "content")
        let fields = try content.container(keyedBy: ContentKeys.self)
        var value = LocalContent(
            title: try fields.decodeIfPresent(String.self, forKey: .title),
            subtitle: try fields.decodeIfPresent(String.self, forKey: .subtitle),
            body: try fields.decodeIfPresent(String.self, forKey: .body),
            sound: try fields.decodeIfPresent(String.self, forKey: .sound),
            badge: try fields.decodeIfPresent(Int.self, forKey: .badge),
            categoryIdentifier: try fields.decodeIfPresent(String.self, forKey: .categoryIdentifier)
        )
        value.titleLocKey = try fields.decodeIfPresent(String.self, forKey: .titleLocKey)
        value.titleLocArgs = try fields.decodeIfPresent([String].self, forKey: .titleLocArgs)
        value.locKey = try fields.decodeIfPresent(String.self, forKey: .locKey)
        value.locArgs = try fields.decodeIfPresent([String].self, forKey: .locArgs)
        value.threadIdentifier = try fields.decodeIfPresent(String.self, forKey: .threadIdentifier)
        if let info = try fields.decodeIfPresent(JSONValue.self, forKey: .userInfo) {
            guard case .object = info else {
                throw DeviceModelError(.invalid, field: "content.userInfo", "userInfo must be a JSON object")
            }
            value.userInfo = String(decoding: try JSONEncoder().encode(info), as: UTF8.self)
        }
        if let badge = value.badge, !(0...Int(Int32.max)).contains(badge) {
            throw DeviceModelError(.invalid, field: "content.badge", "badge must be 0 to \(Int32.max)")
        }
        self.content = value
        self.trigger = try container.decode(NotificationTrigger.self, forKey: .trigger)
        try self.trigger.validate()
    }

    /// The document as the admin API and the device protocol take it (the user info as an object).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(self.identifier, forKey: .identifier)
        try container.encode(self.trigger, forKey: .trigger)
        var fields = container.nestedContainer(keyedBy: ContentKeys.self, forKey: .content)
        let content = self.content
        try fields.encodeIfPresent(content.title, forKey: .title)
        try fields.encodeIfPresent(content.subtitle, forKey: .subtitle)
        try fields.encodeIfPresent(content.body, forKey: .body)
        try fields.encodeIfPresent(content.titleLocKey, forKey: .titleLocKey)
        try fields.encodeIfPresent(content.titleLocArgs, forKey: .titleLocArgs)
        try fields.encodeIfPresent(content.locKey, forKey: .locKey)
        try fields.encodeIfPresent(content.locArgs, forKey: .locArgs)
        try fields.encodeIfPresent(content.sound, forKey: .sound)
        try fields.encodeIfPresent(content.badge, forKey: .badge)
        try fields.encodeIfPresent(content.categoryIdentifier, forKey: .categoryIdentifier)
        try fields.encodeIfPresent(content.threadIdentifier, forKey: .threadIdentifier)
        if let info = content.userInfo {
            try fields.encode(try JSONDecoder().decode(JSONValue.self, from: Data(info.utf8)), forKey: .userInfo)
        }
    }
}

import APNsCore
import Foundation

/// What a local notification shows: the same parts as a remote one's `aps`, plus the app's data.
public struct LocalContent: Hashable, Sendable, Codable {
    public var title: String?
    public var subtitle: String?
    public var body: String?
    public var titleLocKey: String?
    public var titleLocArgs: [String]?
    public var locKey: String?
    public var locArgs: [String]?
    /// `default` or a bundled sound's name.
    public var sound: String?
    public var badge: Int?
    public var categoryIdentifier: String?
    public var threadIdentifier: String?
    /// The app's own data, as a JSON object's text.
    public var userInfo: String?

    public init(
        title: String? = nil, subtitle: String? = nil, body: String? = nil, sound: String? = nil, badge: Int? = nil,
        categoryIdentifier: String? = nil
    ) {
        (self.title, self.subtitle, self.body, self.sound, self.badge, self.categoryIdentifier) = (
            title, subtitle, body, sound, badge, categoryIdentifier
        )
    }

    /// The content as a remote notification's payload, so that it is presented the same way
    /// ("they look the same to the user", seed 004): `aps` from the fields, the user info beside it.
    public var payload: [UInt8] {
        var alert: [String: JSONValue] = [:]
        alert["title"] = self.title.map(JSONValue.string)
        alert["subtitle"] = self.subtitle.map(JSONValue.string)
        alert["body"] = self.body.map(JSONValue.string)
        alert["title-loc-key"] = self.titleLocKey.map(JSONValue.string)
        alert["title-loc-args"] = self.titleLocArgs.map { .array($0.map(JSONValue.string)) }
        alert["loc-key"] = self.locKey.map(JSONValue.string)
        alert["loc-args"] = self.locArgs.map { .array($0.map(JSONValue.string)) }
        var aps: [String: JSONValue] = [:]
        if !alert.isEmpty { aps["alert"] = .object(alert) }
        aps["sound"] = self.sound.map(JSONValue.string)
        aps["badge"] = self.badge.map { .number(Double($0)) }
        aps["category"] = self.categoryIdentifier.map(JSONValue.string)
        aps["thread-id"] = self.threadIdentifier.map(JSONValue.string)
        var object: [String: JSONValue] = [:]
        if let userInfo = self.userInfo, case .object(let info)? = JSONValue.parse(Array(userInfo.utf8)) {
            for (key, value) in info where key != "aps" { object[key] = value }
        }
        object["aps"] = .object(aps)
        return JSONValue.object(object).compact
    }
}

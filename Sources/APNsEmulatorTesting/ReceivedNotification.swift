import APNsAuth
import APNsCore
import Crypto
import Foundation

/// A notification the emulator received, as its journal shows it.
public struct ReceivedNotification: Sendable, Equatable {
    /// Its id in the journal (the `apns-unique-id` of an accepted push).
    public var id: String
    /// The `apns-unique-id`, nil for a refused push.
    public var uniqueID: String?
    /// The device token it was sent to (hex).
    public var token: String?
    /// The `apns-topic`: the app's bundle id, with its suffix for other push types.
    public var topic: String?
    /// The `apns-push-type` (`alert`, `background`, `liveactivity`, ...).
    public var pushType: String?
    /// The `apns-priority` (10, 5 or 1).
    public var priority: Int?
    /// queued, delivered, expired, rejected, ...
    public var status: String
    /// The payload as JSON text.
    public var payload: String
    /// The endpoint it was sent to (development: the sandbox; production); nil for what has none.
    public var environment: APNsEnvironment?
    /// The id of the fault rule that answered it (`exam` for the report card's exam), nil when
    /// none did.
    public var fault: String?

    init(_ item: [String: Any]) {
        self.id = item["id"] as? String ?? ""
        self.uniqueID = item["uniqueId"] as? String
        self.token = item["token"] as? String
        self.topic = item["topic"] as? String
        self.pushType = item["pushType"] as? String
        self.priority = item["priority"] as? Int
        self.status = item["status"] as? String ?? ""
        self.fault = (item["fault"] as? [String: Any])?["id"] as? String
        self.environment = (item["environment"] as? String).flatMap(APNsEnvironment.init(rawValue:))
        let payload = item["payload"].flatMap { $0 is NSNull ? nil : $0 }
        self.payload = payload.flatMap { JSONValue.text(ofFoundation: $0) }.map { String(decoding: $0, as: UTF8.self) } ?? ""
    }

    /// The payload's `aps` dictionary.
    public var aps: [String: Any] {
        (JSONValue.foundationObject(Array(self.payload.utf8)) as? [String: Any])?["aps"] as? [String: Any] ?? [:]
    }

    /// The alert's title (or the alert itself when it is a string).
    public var alertTitle: String? {
        if let text = self.aps["alert"] as? String { return text }
        return (self.aps["alert"] as? [String: Any])?["title"] as? String
    }

    /// The alert's body.
    public var alertBody: String? { (self.aps["alert"] as? [String: Any])?["body"] as? String }
}

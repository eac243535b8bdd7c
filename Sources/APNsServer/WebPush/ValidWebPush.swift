import APNsCore
import Foundation

/// A push that passed every check: what the relay stores.
struct ValidWebPush: Sendable {
    var subscription: WebAppSubscription
    var ttl: Int64
    var urgency: String
    var topic: String?
    var body: [UInt8]
    var vapidSubject: String
    /// `apns-emulator-warning`s for the 201 (an audience without the service's port).
    var warnings: [String] = []

    /// The notification the relay stores for it: the encrypted body travels in a small JSON
    /// envelope (base64url) with what the browser is told beside it.
    /// `environment`: the one its subscription's token was registered in, `--environment`'s (Web
    /// Push has one endpoint; its tokens are the emulator's own).
    func notification(
        apnsID: String, uniqueID: String, receivedAt: Int64, environment: APNsEnvironment
    ) -> APNsCore.Notification {
        var writer = JSONWriter()
        writer.object { writer in
            writer.member("webpush") { writer in
                writer.object { writer in
                    writer.member("subscription") { $0.string(self.subscription.id) }
                    writer.member("body") { $0.string(Self.base64URL(self.body)) }
                    writer.member("sub") { $0.string(self.vapidSubject) }
                    writer.member("urgency") { $0.string(self.urgency) }
                    writer.member("ttl") { $0.number(self.ttl) }
                    if let topic = self.topic { writer.member("topic") { $0.string(topic) } }
                }
            }
        }
        return APNsCore.Notification(
            apnsID: apnsID, uniqueID: uniqueID, token: self.subscription.token, topic: self.subscription.origin,
            pushType: .alert, priority: self.priority,
            // TTL 0: deliver now or never, as apns-expiration 0 (RFC 8030 §5.2).
            expiration: self.ttl == 0 ? 0 : receivedAt / 1000 + self.ttl, collapseID: self.topic, payload: writer.bytes,
            receivedAt: receivedAt, source: .webPush, environment: environment)
    }

    /// `Urgency` as APNs priorities: very-low as 1 (prioritize power), low as 5 (conserve
    /// power), normal and high as 10 (RFC 8030 §5.3's grades onto apns-priority's).
    var priority: Priority {
        switch self.urgency {
        case "very-low": return .prioritizePower
        case "low": return .conservePower
        default: return .immediate
        }
    }

    static func base64URL(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}

import APNsWire
import Foundation

/// Web apps on the device (Safari pages and Home Screen web apps) and their Web Push
/// subscriptions: what `PushManager.subscribe`, `PushSubscription.unsubscribe`, the user's
/// permission and a service worker's `showNotification` do. Needs protocol version 2.
extension DeviceClient {
    /// Sends `web-app` with `action` (subscribe, list, unsubscribe, permission, show) and its JSON
    /// `document`; the answer's JSON (the web app, the list, or the notification shown).
    public func webApp(_ action: String, document: String = "{}") async throws -> String {
        let reply = try await self.request(
            .webApp(action: action, document: Array(document.utf8)), expecting: .webApp,
            subject: DeviceServerMessage.webAppSubject)
        guard case .webApp(let body) = reply else { throw DeviceClientError.unexpectedReply(reply) }
        return String(decoding: body, as: UTF8.self)
    }

    /// A web app at `origin` subscribes with the application server's VAPID public key
    /// (base64url): the web app, with `subscription` {endpoint, keys {p256dh, auth}} and the
    /// `token` its pushes reach this device under.
    public func subscribeWebApp(
        origin: String, applicationServerKey: String, kind: String = "homeScreen", permission: String = "granted"
    ) async throws -> String {
        var writer = [String: String]()
        writer["origin"] = origin
        writer["applicationServerKey"] = applicationServerKey
        writer["kind"] = kind
        writer["permission"] = permission
        let document = String(decoding: try JSONEncoder().encode(writer), as: UTF8.self)
        return try await self.webApp("subscribe", document: document)
    }
}

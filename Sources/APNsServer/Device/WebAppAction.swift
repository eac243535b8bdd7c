/// What a device's `web-app` message asks of one of its web apps (docs/device-protocol.md).
enum WebAppAction: String, CaseIterable {
    /// `PushManager.subscribe`: `{"origin", "kind", "permission", "applicationServerKey"}`.
    case subscribe
    /// The device's web apps: `{}`.
    case list
    /// `PushSubscription.unsubscribe()`: `{"id"}`.
    case unsubscribe
    /// The user changes the origin's permission: `{"id", "permission"}`.
    case permission
    /// The service worker's `showNotification`: `{"id", "title", "body", "navigate"}`.
    case show
}

/// A web page or Home Screen web app on the emulated phone or Mac that subscribed to Web Push:
/// what `PushManager.subscribe` gave it (the endpoint's id, the `p256dh` and `auth` keys) and
/// what the browser keeps to open each push (the subscription's private key).
///
/// Apple, "Sending web push notifications in web apps and browsers": web push reaches Home Screen
/// web apps on iOS and iPadOS 16.4 and later and webpages in Safari 16 on macOS 13 and later; the
/// standards are the W3C Push API, RFC 8030, RFC 8291 and RFC 8292.
public struct WebApp: Hashable, Sendable, Codable {
    /// Where the page runs.
    public struct Kind: RawRepresentable, Hashable, Sendable, Codable {
        public let rawValue: String
        public init?(rawValue: String) {
            guard Self.all.contains(where: { $0.rawValue == rawValue }) else { return nil }
            self.rawValue = rawValue
        }
        private init(_ rawValue: String) { self.rawValue = rawValue }
        /// A web app added to the Home Screen (iOS and iPadOS 16.4, a Mac's Dock web app).
        public static let homeScreen = Kind("homeScreen")
        /// A page in Safari (Safari 16 on macOS 13).
        public static let safari = Kind("safari")
        public static let all = [Kind.homeScreen, .safari]
    }

    /// `Notification.permission` for the origin.
    public struct Permission: RawRepresentable, Hashable, Sendable, Codable {
        public let rawValue: String
        public init?(rawValue: String) {
            guard Self.all.contains(where: { $0.rawValue == rawValue }) else { return nil }
            self.rawValue = rawValue
        }
        private init(_ rawValue: String) { self.rawValue = rawValue }
        public static let granted = Permission("granted")
        public static let denied = Permission("denied")
        public static let `default` = Permission("default")
        public static let all = [Permission.granted, .denied, .default]
    }

    /// The subscription's id: the last segment of its endpoint.
    public var id: String
    /// The page's origin (`https://app.example`).
    public var origin: String
    public var kind: Kind
    public var permission: Permission
    /// The application server's public key the page subscribed with (base64url, 65 bytes): a
    /// push must be signed (VAPID) with its private key.
    public var applicationServerKey: String
    /// The subscription's public key (`keys.p256dh`, base64url) and its private key (base64url,
    /// the raw 32 bytes), which only the browser knows.
    public var p256dh: String
    public var privateKey: String
    /// `keys.auth`: the 16-byte authentication secret (base64url).
    public var auth: String
    /// The token the web app's pushes are queued under (hex); the app it belongs to is named
    /// by the token `hostToken` (hex) of the same device.
    public var token: String
    public var hostToken: String
    /// The device it is on: its host app's device id (`token:<hex>` for an app no device holds).
    public var device: String
    /// When it subscribed (ms since the UNIX epoch); when and why it stopped, if it did.
    public var subscribedAt: Int64
    public var unsubscribedAt: Int64?
    public var unsubscribedBecause: String?
    /// Pushes handed to the service worker that it has not shown a notification for (unique
    /// ids, oldest first).
    public var awaitingShow: [String] = []
    /// Pushes in a row that no notification was shown for (WebKit's penalty counts them).
    public var unshownPushes = 0

    public init(
        id: String, origin: String, kind: Kind, permission: Permission, applicationServerKey: String, p256dh: String,
        privateKey: String, auth: String, token: String, hostToken: String, device: String, subscribedAt: Int64
    ) {
        self.device = device
        self.id = id
        self.origin = origin
        self.kind = kind
        self.permission = permission
        self.applicationServerKey = applicationServerKey
        self.p256dh = p256dh
        self.privateKey = privateKey
        self.auth = auth
        self.token = token
        self.hostToken = hostToken
        self.subscribedAt = subscribedAt
    }

    /// Whether pushes still reach it (410 once it is not).
    public var isSubscribed: Bool { self.unsubscribedAt == nil }

    /// The pushes in a row without a notification that end a web app's subscription (the next
    /// push answers 410). WebKit, "Meet Declarative Web Push" (webkit.org/blog/16535):
    /// original Web Push carries "a penalty for service workers failing to display a
    /// notification"; what developers see is the subscription ending after three such pushes
    /// ("How to fix iOS push subscriptions being terminated after 3 notifications", dev.to).
    public static let unshownPushLimit = 3

    /// An origin the Push API is offered to: `https://host[:port]`, or `http://localhost` or
    /// `http://127.0.0.1` (with a port), which are secure contexts too; no path, query, fragment,
    /// user or space. The admin API's schema states the same pattern.
    nonisolated(unsafe) static let originPattern = #/(https://[^/?#@\s]+|http://(localhost|127\.0\.0\.1)(:[0-9]+)?)/?/#

    /// `text` as an origin (without a trailing `/`), or why it is not one.
    public static func origin(_ text: String) -> Result<String, DeviceModelError> {
        guard text.wholeMatch(of: Self.originPattern) != nil else {
            return .failure(
                DeviceModelError(
                    .invalid, field: "origin",
                    "the Push API is offered to secure contexts only: an origin is https://host[:port] (or http://localhost[:port]), with no path"
                ))
        }
        return .success(text.hasSuffix("/") ? String(text.dropLast()) : text)
    }
}

import APNsAuth
import APNsCore
import APNsDevice
import APNsInspection

/// A world for the emulator to start from (`serve --seed FILE`), and what `export` writes from
/// a running one: devices with their apps' tokens and settings and their power, the provider
/// keys and certificate authorities to accept, broadcast channels, fault rules and the clock.
/// Every token and channel id is kept as it is, so seeding an export starts the same world.
/// Not carried: history (the journal, queues, Notification Center, Live Activities, pending
/// local notifications). Its JSON Schema is `docs/seed.schema.json`.
public struct SeedDocument: Sendable {
    public static let version = 1

    /// An app on a device: its token's record and its settings.
    public struct App: Sendable {
        public var topic: String
        /// Nil: a new token is issued.
        public var token: DeviceToken?
        /// The app build's environment: its token is valid at that endpoint only; nil for `--environment`'s.
        public var environment: APNsEnvironment?
        /// Milliseconds since the UNIX epoch; nil for now.
        public var registeredAt: Int64?
        public var unregisteredAt: Int64?
        /// An unregistered token a provider already read from the feedback service.
        public var feedbackRead = false
        /// As `PUT /api/v1/devices/<token>/app` takes them.
        public var settings: JSONValue?
        /// As `POST /api/v1/devices/<token>/location` takes it.
        public var location: JSONValue?
        /// The push-to-start token ActivityKit gave the app (an export's); without one, an app
        /// declaring Live Activity types on iOS 17.2 or later is given a new one.
        public var pushToStartToken: DeviceToken?
        /// A web app's subscription (an export's, private key included): the app is a web page or
        /// Home Screen web app whose pushes queue under `token`.
        public var webApp: WebApp?
    }

    /// A device (`id` as the device protocol's device id), or, without an id, apps whose tokens
    /// no device holds (registered through the admin API).
    public struct Device: Sendable {
        public var id: String?
        /// Whether the emulator's own phone is this device while nothing is attached (true unless
        /// the seed says `phone: false`: a device that attaches over the device protocol, whose
        /// pushes wait until it does).
        public var phone = true
        /// As `PUT /api/v1/devices/<token>/power` takes it.
        public var power: JSONValue?
        /// The Focus it is in, as `PUT /api/v1/devices/<device id>/focus` takes it.
        public var focus: Focus?
        public var apps: [App] = []
    }

    /// A fault rule; with an `id` (an export's), kept under that id with its hits.
    public struct Fault: Sendable {
        public var document: FaultRuleDocument
        public var id: String?
        public var hits = 0
    }

    /// How far ahead of real time the emulator's clock runs.
    public var clockOffset: Int64 = 0
    public var keys: [ProviderKey] = []
    /// PEM certificates provider certificates may chain to, besides the emulator's own CA.
    public var certificates: [String] = []
    public var devices: [Device] = []
    public var channels: [BroadcastChannel] = []
    /// Bundles whose broadcast capability is off.
    public var broadcastDisabled: [String] = []
    public var faults: [Fault] = []

    public init() {}

    static let sections: Set<String> = [
        "version", "exportedAt", "clock", "keys", "certificates", "devices", "channels", "broadcastDisabled", "faults",
    ]
}

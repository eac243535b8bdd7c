import APNsCore
import APNsDevice
import APNsStore
import APNsWire
import Logging
import NIOCore

/// Every app on the phone, the one state its concerns share: each app's settings and
/// Notification Center (``AppModel``), read from the store on first use and kept in memory.
/// Every change to an app is made under the apps' lock, so that two at once (a push presented
/// while a test changes the settings) never lose each other, written to the store in the order
/// made, and passed to each concern's index (``AppIndex``) before the lock is let go. An app not
/// yet in memory is read from the store before the lock is taken (``preload(_:)``), never under
/// it.
///
/// Thread-safe.
final class PhoneApps: Sendable {
    struct Apps {
        var models: [AppInstall: AppModel] = [:]
        /// How many broadcasts each app has in the store since its settings were last written
        /// (the store applies them again when it reads the app); the settings are written again
        /// past ``LiveActivities/broadcastsBetweenSnapshots``.
        var storedBroadcasts: [AppInstall: Int] = [:]
    }

    let store: NotificationStore
    let logger: Logger
    private let apps = RankedMutex(.apps, Apps())
    /// The concerns' indexes (each an ``IndexLock``'s `track`), kept in step with every change.
    let indexes: [@Sendable (AppModel, AppInstall) -> Void]
    /// The Focus of each device, which a new app on it starts in.
    let focuses: DeviceFocuses

    /// The apps the store holds, read once at start to fill the indexes.
    init(
        store: NotificationStore, logger: Logger, indexes: [@Sendable (AppModel, AppInstall) -> Void], focuses: DeviceFocuses
    ) {
        self.store = store
        self.logger = logger
        self.indexes = indexes
        self.focuses = focuses
    }

    /// Every app the store holds, each passed to the indexes (once, at start).
    func loadStored() -> [(AppInstall, AppModel)] {
        do {
            let apps = try self.store.appInstalls().map { ($0, try self.store.app($0) ?? AppModel()) }
            for (install, app) in apps { self.track(app, install) }
            return apps
        } catch {
            self.logger.warning("could not read the apps the store keeps", metadata: ["store.error": "\(error)"])
            return []
        }
    }

    /// The suffixes of the topics whose tokens belong to a part of an app (its Live Activities,
    /// widgets, Push to Talk channel, location push service extension, complication, file
    /// provider, PushKit's VoIP: the push types' own suffixes), and the controls' (not on Apple's
    /// record). A VoIP push reaches the app's settings (`reportsCalls`), as PushKit reaches the app.
    static let partTopicSuffixes = PushLint.topicSuffixes.map(\.value) + [".push-type.controls"]

    /// The app a part's topic belongs to (`com.example.app.push-type.widgets` →
    /// `com.example.app`, PushKit's `com.example.app.voip` too); other topics are the app's own.
    static func appTopic(_ topic: String) -> String {
        guard let suffix = Self.partTopicSuffixes.first(where: { topic.hasSuffix($0) }) else { return topic }
        return String(topic.dropLast(suffix.count))
    }

    /// Whether an app is one no device holds, only a token (its device id is `token:<hex>`).
    static func isDeviceless(_ install: AppInstall) -> Bool {
        install.deviceID.hasPrefix(Self.devicelessPrefix)
    }

    private static let devicelessPrefix = "token:"

    /// The device id of the app that `token` stands for when no device holds it.
    static func devicelessID(_ token: DeviceToken) -> String { Self.devicelessPrefix + token.hex }

    /// The token an app without a device stands for.
    static func devicelessToken(_ install: AppInstall) -> DeviceToken? {
        guard Self.isDeviceless(install) else { return nil }
        return DeviceToken(hex: String(install.deviceID.dropFirst(Self.devicelessPrefix.count)))
    }

    /// The environment of the token an app no device holds was registered with (its Live
    /// Activity tokens belong to it too); nil for an app on a device, or a token not known.
    func devicelessEnvironment(_ install: AppInstall) throws(StoreError) -> APNsEnvironment? {
        guard let token = Self.devicelessToken(install) else { return nil }
        return try self.store.token(token)?.environment
    }

    /// The app a token belongs to: the device that registered it (or the token itself when no
    /// device did) and its topic (else the notification's).
    func install(of token: DeviceToken, topic: String? = nil) throws(StoreError) -> AppInstall? {
        let record = try self.store.token(token)
        guard let topic = (record.map(\.topic).flatMap({ $0.isEmpty ? nil : $0 }) ?? topic).map(Self.appTopic) else { return nil }
        return AppInstall(deviceID: record?.deviceID ?? Self.devicelessID(token), topic: topic)
    }

    /// The valid token an app install holds: its own for a token without a device, else the one
    /// its device registered for the topic.
    func token(of install: AppInstall) throws(StoreError) -> DeviceToken? {
        if let token = Self.devicelessToken(install) { return token }
        return try self.store.tokens().last {
            $0.deviceID == install.deviceID && $0.topic == install.topic && $0.unregisteredAt == nil
        }?.token
    }

    /// The apps of one device that the store or memory holds.
    func installs(onDevice deviceID: String) throws(StoreError) -> [AppInstall] {
        let stored = try self.store.appInstalls().filter { $0.deviceID == deviceID }
        let cached = self.apps.withLock { Array($0.models.keys.filter { $0.deviceID == deviceID }) }
        return Array(Set(stored + cached))
    }

    /// The app as it is now.
    func app(_ install: AppInstall) throws(StoreError) -> AppModel {
        try self.preload(install)
        return self.apps.withLock { apps in Self.cached(install, &apps) }
    }

    /// Changes an app under the lock and writes the change; the future holds `body`'s result and
    /// the app afterwards once the change is durable. `body` throwing changes nothing.
    func change<R: Sendable>(
        _ install: AppInstall,
        on eventLoop: any EventLoop,
        _ body: (inout AppModel) throws(DeviceModelError) -> R
    ) -> EventLoopFuture<(R, AppModel)> {
        let promise = eventLoop.makePromise(of: (R, AppModel).self)
        do {
            try self.preload(install)
            try self.apps.withLock { apps throws in
                let before = Self.cached(install, &apps)
                var app = before
                let result = try body(&app)
                apps.models[install] = app
                self.track(app, install)
                let change = AppChange(install: install, from: before, to: app)
                guard !change.isEmpty else { return promise.succeed((result, app)) }
                // Submitted under the lock: the writer takes changes in the order they were made.
                self.save(change) { [app] error in
                    if let error { promise.fail(error) } else { promise.succeed((result, app)) }
                }
            }
        } catch {
            promise.fail(error)
        }
        return promise.futureResult
    }

    /// Runs `body` under the apps' lock (the lowest in ``LockRank``'s order: a concern's own
    /// lock may be taken inside it, never the other way round).
    func withLock<Result: Sendable, E: Error>(_ body: (inout Apps) throws(E) -> Result) throws(E) -> Result {
        try self.apps.withLock { (apps: inout sending Apps) throws(E) -> sending Result in try body(&apps) }
    }

    /// Keeps every index in step with a changed app. Called under the apps' lock.
    func track(_ app: AppModel, _ install: AppInstall) {
        for track in self.indexes { track(app, install) }
    }

    /// Writes a change; `done` gets nil once it is durable, or why it is not (also logged: a
    /// presentation's change has nobody waiting to hear of a failure).
    func save(_ change: AppChange, done: @escaping @Sendable ((any Error)?) -> Void) {
        let logger = self.logger
        self.store.submit([.saveApp(change)]) { result in
            var failure: (any Error)?
            switch result {
            case .success(let outcomes):
                if case .refused(let why) = outcomes.first {
                    failure = ServerError(.store, subject: "app \(change.install)", why)
                }
            case .failure(let error):
                failure = error
            }
            if let failure {
                logger.warning("could not save an app", metadata: ["apns.app": "\(change.install)", "store.error": "\(failure)"])
            }
            done(failure)
        }
    }
}

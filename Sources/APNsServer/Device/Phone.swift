import APNsCore
import APNsDevice
import APNsInspection
import APNsStore
import Foundation
import Logging
import NIOCore
import Synchronization

/// The emulated phone's side of every device: each app's settings and Notification Center
/// (``AppModel``, loaded from the store on first use and kept in memory), the presentation of
/// each notification handed to a device, and the user's responses. Every change to an app is
/// made under the apps' lock, so that two at once (a push presented while a test changes the
/// settings) never lose each other, and written to the store in the order made; an app not yet
/// in memory is read from the store before the lock is taken (``preload(_:)``), never under it.
/// The indexes
/// kept from the apps (tokens without a device, the scheduler's apps, the Live Activity index)
/// and the presentation ledger have locks of their own, taken after the apps' lock when both
/// are held and never the other way round: each lock is a ``RankedMutex`` and debug builds
/// stop on a lock taken out of ``LockRank``'s order.
///
/// Thread-safe.
public final class Phone: Sendable {
    struct Apps {
        var models: [AppInstall: AppModel] = [:]
        /// How many broadcasts each app has in the store since its settings were last written
        /// (the store applies them again when it reads the app); the settings are written again
        /// past ``Phone/broadcastsBetweenSnapshots``.
        var storedBroadcasts: [AppInstall: Int] = [:]
    }

    let store: NotificationStore
    let hub: DeliveryHub
    let journal: Journal
    let clock: @Sendable () -> Int64
    let logger: Logger
    let apps = RankedMutex(.apps, Apps())
    /// Tokens no device holds whose app has settings: their notifications are presented as
    /// they are accepted, since no device will ever be handed them.
    let deviceless = RankedMutex(.index, Set<DeviceToken>())
    /// The devices a seed declared, and their tokens: the phone takes their pushes while no
    /// device is attached (``OwnDevices``).
    let ownDevices = RankedMutex(.index, OwnDevices())
    /// Whether any device is the phone's own: the accept path's lookup is one load without one.
    let hasOwnDevices = Atomic<Bool>(false)
    /// Apps with local notifications pending: what the scheduler looks at.
    let scheduled = RankedMutex(.index, Set<AppInstall>())
    /// Live Activity tokens, owners and the apps the clock still changes.
    let activityIndex = RankedMutex(.index, ActivityIndex())
    /// Web apps' subscriptions by endpoint id.
    let webApps = RankedMutex(.index, WebAppIndex())
    /// Each device's Focus, while one is on (every app of the device holds it too): what an app
    /// the device installs later starts with.
    let focuses = RankedMutex(.index, [String: Focus]())
    /// The earliest Scheduled Summary each app has notifications waiting for (milliseconds on the
    /// emulator's clock): what ``presentDueSummaries()`` looks at.
    let summaries = RankedMutex(.index, [AppInstall: Int64]())
    /// Where the Web Push service listens, once it does: subscriptions' endpoints name it.
    let webPushAddress = RankedMutex<SocketAddress?>(.leaf, nil)
    /// What was decided for each notification handed over.
    let ledger: PresentationLedger
    /// The service extensions running now.
    let extensionRuns = ExtensionRuns()
    /// The emulator's ids (its local notifications').
    let ids: EmulatorIDs
    let activityLimits: ActivityLimits
    let metrics: EmulatorMetrics?
    /// The broadcast channels activities subscribe to.
    let channels: BroadcastChannels
    /// This emulator's shard in a cluster (its ids'): the tokens it issues map to it.
    var shard: Shard? { self.ids.shard }
    /// Each device's power state: an offline device's activities take no broadcast until it is back.
    let power: DevicePowerBook

    init(
        store: NotificationStore, hub: DeliveryHub, journal: Journal, clock: @escaping @Sendable () -> Int64, logger: Logger,
        activityLimits: ActivityLimits = ActivityLimits(), metrics: EmulatorMetrics? = nil, channels: BroadcastChannels,
        ids: EmulatorIDs = EmulatorIDs(shard: nil), power: DevicePowerBook = DevicePowerBook()
    ) {
        self.power = power
        self.channels = channels
        self.ledger = PresentationLedger()
        self.ids = ids
        self.activityLimits = activityLimits
        self.metrics = metrics
        self.store = store
        self.hub = hub
        self.journal = journal
        self.clock = clock
        self.logger = logger
        do {
            let installs = try store.appInstalls()
            let tokens = installs.compactMap { Self.devicelessToken($0) }
            let apps = try installs.map { ($0, try store.app($0) ?? AppModel()) }
            self.deviceless.withLock { $0 = Set(tokens) }
            self.scheduled.withLock { $0 = Set(apps.filter { !$0.1.pending.isEmpty }.map(\.0)) }
            self.activityIndex.withLock { index in
                for (install, app) in apps { index.index(app, install, limits: activityLimits) }
            }
            self.webApps.withLock { index in
                for (install, app) in apps { index.index(app, install) }
            }
            self.focuses.withLock { focuses in
                for (install, app) in apps { if let focus = app.focus { focuses[install.deviceID] = focus } }
            }
            self.summaries.withLock { summaries in
                for (install, app) in apps { if let at = Self.nextSummary(of: app) { summaries[install] = at } }
            }
        } catch {
            logger.warning("could not read the apps the store keeps", metadata: ["store.error": "\(error)"])
        }
    }

    /// The token an app without a device stands for (its device id is `token:<hex>`).
    static func devicelessToken(_ install: AppInstall) -> DeviceToken? {
        guard install.deviceID.hasPrefix("token:") else { return nil }
        return DeviceToken(hex: String(install.deviceID.dropFirst("token:".count)))
    }

    /// The environment of the token an app no device holds was registered with (its Live
    /// Activity tokens belong to it too); nil for an app on a device, or a token not known.
    func devicelessEnvironment(_ install: AppInstall) throws(StoreError) -> APNsEnvironment? {
        guard let token = Self.devicelessToken(install) else { return nil }
        return try self.store.token(token)?.environment
    }

    /// What the phone does with a notification no connected device took: present it now (a
    /// token no device holds), apply it to a Live Activity, or nothing. One lock and set
    /// lookups: this is on the accept path. Returns, for a Live Activity push, the future of
    /// its application being durable; `nil` when there is nothing to wait for. `deviceless`:
    /// ``presentsAtAcceptance(_:)`` as the relay found it at acceptance (not looked up twice).
    func takeUndelivered(
        _ notification: APNsCore.Notification, deviceless: Bool, on eventLoop: any EventLoop
    ) -> EventLoopFuture<Void>? {
        let token = notification.token
        if deviceless {
            self.present(notification, on: eventLoop)
        } else if let key = self.activityIndex.withLock({ $0.tokens.isEmpty ? nil : $0.tokens[token] }) {
            return self.receiveActivityPush(notification, at: key, on: eventLoop)
        }
        return nil
    }

    /// Whether the phone itself takes this token's pushes at acceptance (a token no device holds).
    func presentsAtAcceptance(_ token: DeviceToken) -> Bool {
        self.deviceless.withLock { !$0.isEmpty && $0.contains(token) }
    }

    /// The app a token belongs to: the device that registered it (or the token itself when no
    /// device did) and its topic (else the notification's).
    func install(of token: DeviceToken, topic: String? = nil) throws(StoreError) -> AppInstall? {
        let record = try self.store.token(token)
        guard let topic = (record.map(\.topic).flatMap({ $0.isEmpty ? nil : $0 }) ?? topic).map(Self.appTopic) else { return nil }
        return AppInstall(deviceID: record?.deviceID ?? "token:\(token.hex)", topic: topic)
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

    /// Keeps the indexes in step with a changed app: a token no device holds now presents its
    /// notifications, the scheduler watches apps with pending requests, Live Activity tokens.
    /// Called under the apps' lock.
    func track(_ app: AppModel, _ install: AppInstall) {
        if let token = Self.devicelessToken(install) { _ = self.deviceless.withLock { $0.insert(token) } }
        self.scheduled.withLock { scheduled in
            if app.pending.isEmpty { scheduled.remove(install) } else { scheduled.insert(install) }
        }
        self.activityIndex.withLock { $0.index(app, install, limits: self.activityLimits) }
        if app.webApp != nil { self.webApps.withLock { $0.index(app, install) } }
    }

    /// The device acknowledged a notification: it will not be handed over again.
    func acknowledged(_ uniqueID: String) {
        self.ledger.forget(uniqueID)
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

    /// Empties every Notification Center, and with `devices` forgets every app (the store is
    /// emptied alongside by the admin API's reset).
    func reset(devices: Bool) {
        self.apps.withLock { apps in
            if devices {
                apps.models = [:]
                self.deviceless.withLock { $0 = [] }
                self.ownDevices.withLock { $0 = OwnDevices() }
                self.scheduled.withLock { $0 = [] }
                self.activityIndex.withLock { $0 = ActivityIndex() }
                self.webApps.withLock { $0 = WebAppIndex() }
                self.focuses.withLock { $0 = [:] }
            } else {
                for install in apps.models.keys { apps.models[install]?.delivered = [] }
            }
            self.ledger.removeAll()
            self.extensionRuns.removeAll()
            self.summaries.withLock { $0 = [:] }
        }
    }

    /// What a version-2 device is told for a notification no app could be named for (a token the
    /// emulator never issued, pushed without a topic): nothing was decided.
    static let noApp: Presentation = {
        var presentation = Presentation()
        presentation.notes = [
            "the emulator knows no app for this token (never registered, pushed without apns-topic), so the phone decided nothing"
        ]
        return presentation
    }()

    /// A value as JSON text, for the device protocol and the admin API.
    static func json<T: Encodable>(_ value: T) -> [UInt8] {
        Array(PhoneJSON.encoded(value).utf8)
    }
}

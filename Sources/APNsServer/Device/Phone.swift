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
/// each notification handed to a device, and the user's responses. Every change is made under
/// one lock, so that two at once (a push presented while a test changes the settings) never
/// lose each other, and written to the store in the order made.
///
/// Thread-safe.
public final class Phone: Sendable {
    struct State {
        var apps: [AppInstall: AppModel] = [:]
        /// What was decided for each notification handed over (a notification sent again after
        /// a reconnect is not presented twice), until its device acknowledges it.
        var presented: [String: (install: AppInstall, token: DeviceToken, presentation: Presentation)] = [:]
        var presentedOrder: [String] = []
        /// Tokens no device holds whose app has settings: their notifications are presented as
        /// they are accepted, since no device will ever be handed them.
        var deviceless: Set<DeviceToken> = []
        /// Apps with local notifications pending: what the scheduler looks at.
        var scheduled: Set<AppInstall> = []
        /// The request a fired local notification came from, until it is presented.
        var localRequests: [String: String] = [:]
        /// Live Activity tokens (push-to-start and update) and what each stands for.
        var activityTokens: [DeviceToken: ActivityKey] = [:]
        /// Apps whose activities the clock will still change.
        var activityApps: Set<AppInstall> = []
        /// Which app each activity belongs to.
        var activityOwners: [String: AppInstall] = [:]
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
    let state = Mutex(State())
    let ids: Mutex<APNsIDGenerator>
    let activityLimits: ActivityLimits
    let metrics: EmulatorMetrics?
    /// The broadcast channels activities subscribe to.
    let channels: BroadcastChannels
    /// This emulator's shard in a cluster: the tokens it issues map to it.
    let shard: Shard?
    /// The most presentations remembered for devices that do not acknowledge.
    static let presentedLimit = 10_000

    init(
        store: NotificationStore, hub: DeliveryHub, journal: Journal, clock: @escaping @Sendable () -> Int64, logger: Logger,
        activityLimits: ActivityLimits = ActivityLimits(), metrics: EmulatorMetrics? = nil, channels: BroadcastChannels, shard: Shard? = nil
    ) {
        self.channels = channels
        self.shard = shard
        self.ids = Mutex(APNsIDGenerator(shard: shard))
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
            self.state.withLock { state in
                state.deviceless = Set(tokens)
                state.scheduled = Set(apps.filter { !$0.1.pending.isEmpty }.map(\.0))
                for (install, app) in apps { Self.indexActivityTokens(of: app, install, limits: activityLimits, into: &state) }
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

    /// What the phone does with a notification no connected device took: present it now (a
    /// token no device holds), apply it to a Live Activity, or nothing. One lock and set
    /// lookups: this is on the accept path. Returns, for a Live Activity push, the future of
    /// its application being durable; `nil` when there is nothing to wait for.
    func takeUndelivered(_ notification: APNsCore.Notification, on eventLoop: any EventLoop) -> EventLoopFuture<Void>? {
        let token = notification.token
        let route = self.state.withLock { state -> (present: Bool, activity: ActivityKey?) in
            if !state.deviceless.isEmpty, state.deviceless.contains(token) { return (true, nil) }
            if !state.activityTokens.isEmpty, let key = state.activityTokens[token] { return (false, key) }
            return (false, nil)
        }
        if route.present {
            _ = self.present(notification)
        } else if let key = route.activity {
            return self.receiveActivityPush(notification, at: key, on: eventLoop)
        }
        return nil
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
        try self.state.withLock { state throws(StoreError) in try Self.load(install, &state, self.store) }
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
            try self.state.withLock { state throws in
                let before = try Self.load(install, &state, self.store)
                var app = before
                let result = try body(&app)
                state.apps[install] = app
                Self.track(app, install, limits: self.activityLimits, in: &state)
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
    static func track(_ app: AppModel, _ install: AppInstall, limits: ActivityLimits, in state: inout State) {
        if let token = Self.devicelessToken(install) { state.deviceless.insert(token) }
        if app.pending.isEmpty { state.scheduled.remove(install) } else { state.scheduled.insert(install) }
        Self.indexActivityTokens(of: app, install, limits: limits, into: &state)
    }

    static func load(_ install: AppInstall, _ state: inout State, _ store: NotificationStore) throws(StoreError) -> AppModel {
        if let app = state.apps[install] { return app }
        let app = try store.app(install) ?? AppModel()
        state.apps[install] = app
        state.storedBroadcasts[install] = try store.appBroadcastCount(install)
        return app
    }

    /// Decides how the phone presents `notification` as it is handed to its device, records it
    /// (journal, event, Notification Center) and returns it; the same decision again for a
    /// notification handed over twice. Nil when no app can be named for its token.
    func present(_ notification: APNsCore.Notification) -> Presentation? {
        do {
            guard let install = try self.install(of: notification.token, topic: notification.topic) else { return nil }
            return try self.present(notification, in: install)
        } catch {
            self.logger.warning("could not present a notification", metadata: ["apns.unique_id": "\(notification.uniqueID)", "store.error": "\(error)"])
            return nil
        }
    }

    private func present(_ notification: APNsCore.Notification, in install: AppInstall) throws(StoreError) -> Presentation {
        let now = self.clock()
        let decided = try self.state.withLock { state throws(StoreError) -> (Presentation, fresh: Bool) in
            if let known = state.presented[notification.uniqueID] { return (known.presentation, false) }
            let before = try Self.load(install, &state, self.store)
            // Widgets, controls, push to talk, location, complication, file provider and MDM pushes
            // wake part of the app; the others are presented.
            var (presentation, after) =
                PushWake.handles(notification.pushType)
                ? PushWake.wake(pushType: notification.pushType, payload: notification.payload, priority: notification.priority, at: now, app: before)
                : Presenter.present(payload: notification.payload, uniqueID: notification.uniqueID, at: now, to: before)
            if let request = state.localRequests.removeValue(forKey: notification.uniqueID),
                let index = after.delivered.lastIndex(where: { $0.uniqueID == notification.uniqueID })
            {
                after.delivered[index].requestIdentifier = request
            }
            state.apps[install] = after
            let change = AppChange(install: install, from: before, to: after)
            if !change.isEmpty { self.save(change) { _ in } }
            state.presented[notification.uniqueID] = (install, notification.token, presentation)
            state.presentedOrder.append(notification.uniqueID)
            if state.presentedOrder.count > Self.presentedLimit {
                let dropped = state.presentedOrder.prefix(Self.presentedLimit / 10)
                for id in dropped { state.presented[id] = nil }
                state.presentedOrder.removeFirst(dropped.count)
            }
            return (presentation, true)
        }
        let (presentation, fresh) = decided
        if fresh { self.journal.presented(uniqueID: notification.uniqueID, presentation) }
        return presentation
    }

    /// The device acknowledged a notification: it will not be handed over again.
    func acknowledged(_ uniqueID: String) {
        // Its id stays in `presentedOrder` until trimmed: removing it there would scan the list.
        _ = self.state.withLock { $0.presented.removeValue(forKey: uniqueID) }
    }

    /// Writes a change; `done` gets nil once it is durable, or why it is not (also logged: a
    /// presentation's change has nobody waiting to hear of a failure).
    private func save(_ change: AppChange, done: @escaping @Sendable ((any Error)?) -> Void) {
        let logger = self.logger
        self.store.submit([.saveApp(change)]) { result in
            var failure: (any Error)?
            switch result {
            case .success(let outcomes):
                if case .refused(let why) = outcomes.first { failure = ServerError(.store, subject: "app \(change.install)", why) }
            case .failure(let error):
                failure = error
            }
            if let failure { logger.warning("could not save an app", metadata: ["apns.app": "\(change.install)", "store.error": "\(failure)"]) }
            done(failure)
        }
    }

    /// Empties every Notification Center, and with `devices` forgets every app (the store is
    /// emptied alongside by the admin API's reset).
    func reset(devices: Bool) {
        self.state.withLock { state in
            if devices {
                state.apps = [:]
                state.deviceless = []
                state.scheduled = []
                state.activityTokens = [:]
                state.activityApps = []
                state.activityOwners = [:]
            } else {
                for install in state.apps.keys { state.apps[install]?.delivered = [] }
            }
            state.presented = [:]
            state.presentedOrder = []
        }
    }

    /// What a version-2 device is told for a notification no app could be named for (a token the
    /// emulator never issued, pushed without a topic): nothing was decided.
    static let noApp: Presentation = {
        var presentation = Presentation()
        presentation.notes = ["the emulator knows no app for this token (never registered, pushed without apns-topic), so the phone decided nothing"]
        return presentation
    }()

    /// A value as JSON text, for the device protocol and the admin API.
    static func json<T: Encodable>(_ value: T) -> [UInt8] {
        Array(PhoneJSON.encoded(value).utf8)
    }
}

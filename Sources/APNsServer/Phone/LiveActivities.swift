import APNsCore
import APNsDevice
import APNsInspection
import APNsStore
import APNsWire
import Logging
import NIOCore

/// Live Activities on the phone: the tokens ActivityKit hands out (each registered in the store
/// under `<bundle>.push-type.liveactivity`, so APNs' token and topic checks apply to them), the
/// pushes and broadcasts that reach them, and what the clock does to running activities. Keeps
/// the index of their tokens and owners (``ActivityIndex``).
///
/// Thread-safe.
final class LiveActivities: Sendable {
    /// What a Live Activity token stands for: an app's push-to-start token or an activity's
    /// update token.
    struct ActivityKey: Hashable, Sendable {
        var install: AppInstall
        var target: ActivityTarget
    }

    static let activityTopicSuffix = ".push-type.liveactivity"

    let apps: PhoneApps
    /// The tokens, owners and the apps the clock still changes.
    let index: IndexLock<ActivityIndex>
    let limits: ActivityLimits
    /// The broadcast channels activities subscribe to.
    let channels: BroadcastChannels
    /// Each device's power state: an offline device's activities take no broadcast until it is back.
    let power: DevicePowerBook
    /// The connected devices, told what changed.
    let hub: DeliveryHub
    let journal: Journal
    let metrics: EmulatorMetrics?
    /// The tokens ActivityKit issues.
    let ids: EmulatorIDs
    let clock: @Sendable () -> Int64
    let logger: Logger

    init(
        apps: PhoneApps, index: IndexLock<ActivityIndex>, limits: ActivityLimits, channels: BroadcastChannels,
        power: DevicePowerBook, hub: DeliveryHub, journal: Journal, metrics: EmulatorMetrics?, ids: EmulatorIDs,
        clock: @escaping @Sendable () -> Int64, logger: Logger
    ) {
        (self.apps, self.index, self.limits, self.channels, self.power, self.hub) = (apps, index, limits, channels, power, hub)
        (self.journal, self.metrics, self.ids, self.clock, self.logger) = (journal, metrics, ids, clock, logger)
    }

    /// A new Live Activity token (push-to-start or update), as hex.
    var issueToken: @Sendable () -> String { { [ids] in ids.newToken().hex } }

    /// A Live Activity push APNs accepted: the phone applies it (or ignores it, saying why),
    /// records the outcome in its journal entry, and counts it as delivered, since iOS takes it
    /// whether or not the app runs. Call after the commit, on `eventLoop`.
    @discardableResult
    func receiveActivityPush(
        _ notification: APNsCore.Notification, at key: ActivityKey, on eventLoop: any EventLoop
    ) -> EventLoopFuture<Void> {
        let now = self.clock()
        let limits = self.limits
        let push = ActivityPush(payload: notification.payload, priority: Int(notification.priority.rawValue))
        // Asked before the phone's lock is taken: a broadcast holds the channels' lock while it takes the phone's.
        let channelKnown = push.inputPushChannel.map { self.channels.isSubscribable($0, of: key.install.topic, now: now) } ?? true
        let changed = self.changeActivities(key.install, acknowledging: notification.uniqueID, on: eventLoop) { app in
            guard notification.pushType == .liveactivity else {
                var id: String?
                if case .activity(let activity) = key.target { id = activity }
                return ActivityReport(
                    event: push.event ?? "", outcome: .ignored("not-liveactivity"),
                    reason: "a Live Activity token takes apns-push-type liveactivity, not \(notification.pushType.rawValue)",
                    activityID: id)
            }
            return app.receive(
                push, at: key.target, uniqueID: notification.uniqueID, now: now, limits: limits, issueToken: self.issueToken,
                channelExists: { _ in channelKnown })
        }
        changed.whenSuccess { report, app in
            self.handOverStoredBroadcast(after: report, app: app, install: key.install, on: eventLoop)
        }
        return changed.map { _ in }
    }

    /// Applies the pushes to Live Activity tokens that were accepted but not yet applied (the
    /// emulator stopped between the two commits), in acceptance order: a 200 is never lost. An
    /// applied push leaves its queue in the same commit as its change, so none applies twice.
    /// Call once, at start.
    func resumeActivityPushes(on eventLoop: any EventLoop) {
        let keys = self.index.withLock { $0.tokens }
        var pending: [(sequence: UInt64, notification: APNsCore.Notification, key: ActivityKey)] = []
        for (token, key) in keys {
            do {
                pending += try self.apps.store.queued(for: token).map { ($0.sequence, $0.notification, key) }
            } catch {
                self.logger.warning(
                    "could not read a Live Activity token's queue",
                    metadata: ["apns.token": "\(token.hex)", "store.error": "\(error)"])
            }
        }
        for push in pending.sorted(by: { $0.sequence < $1.sequence }) {
            self.receiveActivityPush(push.notification, at: push.key, on: eventLoop)
        }
    }

    /// Changes an app's activities under the lock, then writes the change with the tokens that
    /// came and went (and the push's acknowledgement) in one commit, and tells the journal,
    /// the metrics and the event stream. The future holds the report and the app once durable;
    /// `body` throwing changes nothing.
    func changeActivities(
        _ install: AppInstall,
        acknowledging uniqueID: String? = nil,
        broadcast broadcastID: String? = nil,
        on eventLoop: any EventLoop,
        _ body: (inout AppModel) throws(DeviceModelError) -> ActivityReport
    ) -> EventLoopFuture<(ActivityReport, AppModel)> {
        let promise = eventLoop.makePromise(of: (ActivityReport, AppModel).self)
        let logger = self.logger
        do {
            try self.apps.preload(install)
            let (report, app) = try self.apps.withLock { apps throws -> (ActivityReport, AppModel) in
                let before = PhoneApps.cached(install, &apps)
                var app = before
                let report = try body(&app)
                apps.models[install] = app
                var operations: [StoreOperation] = []
                let change = AppChange(install: install, from: before, to: app)
                if !change.isEmpty { operations.append(.saveApp(change)) }
                if !report.tokens.isEmpty {
                    let environment = try app.environment ?? self.apps.devicelessEnvironment(install)
                    operations += self.index.withLock {
                        $0.apply(report.tokens, install, topicSuffix: Self.activityTopicSuffix, environment: environment)
                    }
                }
                self.apps.track(app, install)
                if let uniqueID { operations.append(.acknowledge(uniqueID: uniqueID)) }
                guard !operations.isEmpty else {
                    promise.succeed((report, app))
                    return (report, app)
                }
                // Submitted under the lock: the writer takes changes in the order they were made.
                self.apps.store.submit(operations) { [report, app] result in
                    switch result {
                    case .success: promise.succeed((report, app))
                    case .failure(let error):
                        logger.warning(
                            "could not save a Live Activity change",
                            metadata: ["apns.app": "\(install)", "store.error": "\(error)"])
                        promise.fail(error)
                    }
                }
                return (report, app)
            }
            self.announce(report, app: app, install: install, uniqueID: uniqueID, broadcastID: broadcastID)
        } catch {
            promise.fail(error)
        }
        return promise.futureResult
    }

    /// The device whose Live Activity token `token` is, if the phone holds it (for a push to it,
    /// ActivityKit takes it when that device is online: expiration 0 still reaches it).
    func activityDevice(of token: DeviceToken) -> String? {
        self.index.withLock { $0.tokens.isEmpty ? nil : $0.tokens[token]?.install.deviceID }
    }

    /// The Live Activity tokens (push-to-start and update) the apps of `deviceID` hold.
    func activityTokens(of deviceID: String) -> [DeviceToken] {
        self.index.withLock { index in index.tokens.compactMap { $0.value.install.deviceID == deviceID ? $0.key : nil } }
    }

    /// The app that holds activity `id`, if any.
    func owner(ofActivity id: String) -> AppInstall? {
        self.index.withLock { $0.owners[id] }
    }

    /// Moves every app's activities to the clock's now: stale, ended, dismissed as due.
    @discardableResult
    func advanceActivities(on eventLoop: any EventLoop) -> EventLoopFuture<Void> {
        let now = self.clock()
        let limits = self.limits
        let due = self.apps.withLock { apps in
            self.index.withLock { $0.clocked }.filter {
                apps.models[$0]?.nextActivityChange(limits: limits).map { $0 <= now } ?? true
            }
        }
        let changed = due.map { install in
            self.changeActivities(install, on: eventLoop) { app in
                var report = ActivityReport(event: "clock", outcome: ActivityOutcome(.clock))
                report.changes = app.advanceActivities(to: now, limits: limits)
                return report
            }
        }
        return EventLoopFuture.andAllComplete(changed, on: eventLoop)
    }
}

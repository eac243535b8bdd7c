import APNsCore
import APNsDevice
import APNsStore
import NIOCore

/// Broadcasts on the phone: each app of the channel's bundle applies one to the activities
/// subscribed to it, and an activity that subscribes later gets the channel's stored message.
extension LiveActivities {
    /// One subscribed activity's outcome, with the device it runs on.
    struct BroadcastDelivery: Sendable {
        var deviceID: String
        var outcome: BroadcastOutcome
    }

    /// What a broadcast's fan-out has for the connected devices: each app it changed and its
    /// report, told by ``tell(_:)`` once the broadcast's answer is on its way.
    struct DeviceNews: Sendable {
        fileprivate var reports: [(report: ActivityReport, install: AppInstall)] = []
    }

    /// Applies a broadcast to every activity subscribed to `channel` on every device, each app's
    /// change submitted to the store before this returns. Call with the channels' lock held:
    /// broadcasts on a channel then reach the phone in the order they were taken. What the
    /// devices hear of it is left in `news`, for ``tell(_:)`` after the answer: writing each
    /// activity's document for its device is half the fan-out's work, and none of it is needed
    /// for the 200.
    func fanOut(
        _ push: BroadcastPush, channel: BroadcastChannel, uniqueID: String, news: inout DeviceNews, on eventLoop: any EventLoop
    ) -> [BroadcastDelivery] {
        let (now, limits) = (self.clock(), self.limits)
        let installs = self.apps.withLock { apps in
            apps.models.compactMap { install, app in
                install.topic == channel.bundleID && !app.subscribers(of: channel.id).isEmpty ? install : nil
            }
        }
        let delta = AppBroadcastDelta(
            uniqueID: uniqueID, channelID: channel.id, payload: String(decoding: push.payload, as: UTF8.self),
            priority: Int(push.priority.rawValue), now: now,
            limits: limits)
        var deliveries: [BroadcastDelivery] = []
        for install in installs.sorted(by: { ($0.deviceID, $0.topic) < ($1.deviceID, $1.topic) }) {
            let outcomes =
                self.power.power(of: install.deviceID).online
                ? self.applyBroadcast(delta, to: install, news: &news) : self.missed(by: install, channel: channel)
            deliveries += outcomes.map { BroadcastDelivery(deviceID: install.deviceID, outcome: $0) }
        }
        return deliveries
    }

    /// What the activities of an app on an offline device make of a broadcast: nothing yet. With
    /// message-storage-policy 1 the channel keeps its latest message for them, and it reaches them
    /// when the device comes online (``deliverStoredBroadcasts(to:on:)``); with 0 it never does.
    private func missed(by install: AppInstall, channel: BroadcastChannel) -> [BroadcastOutcome] {
        let subscribers = self.apps.withLock { $0.models[install]?.subscribers(of: channel.id) ?? [] }
        let outcome =
            channel.storagePolicy == 1
            ? BroadcastOutcome(
                activityID: "", outcome: ActivityOutcome(.waiting, code: Self.deviceOffline),
                reason:
                    "the device is offline: the channel keeps its latest message, which reaches the activity when the device is back online"
            )
            : BroadcastOutcome(
                activityID: "", outcome: .ignored(Self.deviceOffline),
                reason:
                    "the device was offline and the channel stores nothing (message-storage-policy 0): this message never reaches the activity"
            )
        return subscribers.map { id in
            var one = outcome
            one.activityID = id
            return one
        }
    }

    /// The code of a broadcast outcome for an activity whose device was offline.
    static let deviceOffline = "device-offline"

    /// Device `deviceID` is back online: each of its running activities subscribed to a channel
    /// that keeps a message (policy 1, under its expiry) gets that message if it has not had it,
    /// as APNs delivers a channel's stored message to a device that comes online.
    func deliverStoredBroadcasts(to deviceID: String, on eventLoop: any EventLoop) {
        let now = self.clock()
        let subscribed = self.apps.withLock { apps in
            apps.models.flatMap { install, app -> [(install: AppInstall, id: String, channel: String)] in
                guard install.deviceID == deviceID else { return [] }
                return app.activities.compactMap { activity in
                    activity.isRunning ? activity.channelID.map { (install, activity.id, $0) } : nil
                }
            }
        }
        guard !subscribed.isEmpty else { return }
        let messages = self.channels.read { book in
            subscribed.compactMap { one in
                book.subscribable(one.channel, of: one.install.topic, now: now)?.storedMessage(at: now).map { (one, $0) }
            }
        }
        for (one, message) in messages {
            // One it already had (it was online then, or took it when it subscribed) is not applied again.
            let had = self.apps.withLock { apps in
                apps.models[one.install]?.activities.first { $0.id == one.id }?.history.contains {
                    $0.uniqueID == message.uniqueID
                }
            }
            guard had == false else { continue }
            self.handOver(message, channelID: one.channel, to: one.id, of: one.install, now: now, on: eventLoop)
        }
    }

    /// Applies a channel's stored message to one of its subscribed activities, as the broadcast
    /// would have reached it.
    private func handOver(
        _ message: StoredBroadcast, channelID: String, to activityID: String, of install: AppInstall, now: Int64,
        on eventLoop: any EventLoop
    ) {
        let push = ActivityPush(payload: Array(message.payload.utf8), priority: message.priority)
        let limits = self.limits
        _ = self.changeActivities(install, broadcast: message.uniqueID, on: eventLoop) { app in
            let applied = app.receiveBroadcast(
                push, channelID: channelID, uniqueID: message.uniqueID, now: now, limits: limits, only: activityID)
            return applied.report
        }
        self.metrics?.broadcast.delivered(1)
    }

    /// How many broadcasts an app keeps in the store before its settings are written whole again:
    /// reading an app applies them again, and writing it costs what a few dozen broadcasts do.
    static let broadcastsBetweenSnapshots = 32

    /// Applies a broadcast to one app and submits what it changed to the store: the broadcast
    /// itself (``AppBroadcastDelta``), not the app, unless the app is due to be written whole or
    /// the broadcast changed its Notification Center. The app is changed in place (no copy of
    /// its activities and their histories is kept). Submitted under the lock, as every app change.
    private func applyBroadcast(
        _ delta: AppBroadcastDelta, to install: AppInstall, news: inout DeviceNews
    ) -> [BroadcastOutcome] {
        let logger = self.logger
        do {
            try self.apps.preload(install)
            let (report, outcomes) = self.apps.withLock { apps -> (ActivityReport, [BroadcastOutcome]) in
                _ = PhoneApps.cached(install, &apps)
                // Out of the dictionary while it changes, so the change is made in place.
                var app = apps.models.removeValue(forKey: install) ?? AppModel()
                let delivered = app.delivered
                let (report, outcomes) = delta.apply(to: &app)
                apps.models[install] = app
                let stored = apps.storedBroadcasts[install, default: 0]
                var change: AppChange
                if stored >= Self.broadcastsBetweenSnapshots || app.delivered != delivered {
                    var settings = app
                    settings.delivered = []
                    let old = Set(delivered.map(\.uniqueID))
                    let new = Set(app.delivered.map(\.uniqueID))
                    change = AppChange(
                        install: install, settings: settings, added: app.delivered.filter { !old.contains($0.uniqueID) },
                        removed: delivered.filter { !new.contains($0.uniqueID) })
                    apps.storedBroadcasts[install] = 0
                } else {
                    change = AppChange(install: install, settings: nil, added: [], removed: [], broadcast: delta)
                    apps.storedBroadcasts[install] = stored + 1
                }
                var operations: [StoreOperation] = [.saveApp(change)]
                operations += self.index.withLock {
                    $0.apply(report.tokens, install, topicSuffix: Self.activityTopicSuffix, environment: app.environment)
                }
                self.apps.track(app, install)
                self.apps.store.submit(operations) { result in
                    if case .failure(let error) = result {
                        logger.warning(
                            "could not save a broadcast's change",
                            metadata: ["apns.app": "\(install)", "store.error": "\(error)"])
                    }
                }
                return (report, outcomes)
            }
            self.record(report, install: install, uniqueID: nil, broadcastID: delta.uniqueID)
            news.reports.append((report, install))
            return outcomes
        } catch {
            logger.warning("could not apply a broadcast", metadata: ["apns.app": "\(install)", "store.error": "\(error)"])
            return []
        }
    }

    /// Tells each connected device what a broadcast's fan-out changed there, each activity as
    /// its app has it now: a change made since (a later broadcast, an update to the activity's
    /// own token, already told) is not undone on the device by older news arriving after it.
    func tell(_ news: DeviceNews) {
        for (report, install) in news.reports {
            guard let app = self.apps.withLock({ $0.models[install] }) else { continue }
            self.inform(report, app: app, install: install)
        }
    }

    /// After an activity started on a channel: the channel's stored message (policy 1, under 8
    /// hours old), if it has one, reaches it as it would have had it been there.
    func handOverStoredBroadcast(after report: ActivityReport, app: AppModel, install: AppInstall, on eventLoop: any EventLoop) {
        guard report.outcome == .started, let id = report.activityID,
            let channelID = app.activities.first(where: { $0.id == id })?.channelID
        else { return }
        let now = self.clock()
        guard
            let message = self.channels.read({ $0.subscribable(channelID, of: install.topic, now: now)?.storedMessage(at: now) })
        else { return }
        self.handOver(message, channelID: channelID, to: id, of: install, now: now, on: eventLoop)
    }

    /// How many running activities are subscribed to each channel of `bundleID` (all bundles when nil).
    func subscriptionCounts(bundleID: String? = nil) -> [String: Int] {
        self.apps.withLock { apps in
            var counts: [String: Int] = [:]
            for (install, app) in apps.models where bundleID == nil || install.topic == bundleID {
                for activity in app.activities where activity.isRunning {
                    if let channel = activity.channelID { counts[channel, default: 0] += 1 }
                }
            }
            return counts
        }
    }
}

extension LiveActivities {
    /// Running activities subscribed to a channel, and the devices they run on.
    func subscriberTotals() -> (subscriptions: Int, devices: Int) {
        self.apps.withLock { apps in
            var subscriptions = 0
            var devices: Set<String> = []
            for (install, app) in apps.models {
                let count = app.activities.lazy.filter { $0.isRunning && $0.channelID != nil }.count
                subscriptions += count
                if count > 0 { devices.insert(install.deviceID) }
            }
            return (subscriptions, devices.count)
        }
    }
}

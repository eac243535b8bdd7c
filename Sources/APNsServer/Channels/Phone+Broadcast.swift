import APNsCore
import APNsDevice
import NIOCore

/// Broadcasts on the phone: each app of the channel's bundle applies one to the activities
/// subscribed to it, and an activity that subscribes later gets the channel's stored message.
extension Phone {
    /// One subscribed activity's outcome, with the device it runs on.
    struct BroadcastDelivery: Sendable {
        var deviceID: String
        var outcome: BroadcastOutcome
    }

    /// Applies a broadcast to every activity subscribed to `channel` on every device, each app's
    /// change submitted to the store before this returns. Call with the channels' lock held:
    /// broadcasts on a channel then reach the phone in the order they were taken.
    func fanOut(_ push: BroadcastPush, channel: BroadcastChannel, uniqueID: String, on eventLoop: any EventLoop) -> [BroadcastDelivery] {
        let (now, limits) = (self.clock(), self.activityLimits)
        let installs = self.state.withLock { state in
            state.apps.compactMap { install, app in install.topic == channel.bundleID && !app.subscribers(of: channel.id).isEmpty ? install : nil }
        }
        let activityPush = ActivityPush(payload: push.payload, priority: Int(push.priority.rawValue))
        var deliveries: [BroadcastDelivery] = []
        for install in installs.sorted(by: { ($0.deviceID, $0.topic) < ($1.deviceID, $1.topic) }) {
            var outcomes: [BroadcastOutcome] = []
            _ = self.changeActivities(install, broadcast: uniqueID, on: eventLoop) { app in
                let (report, applied) = app.receiveBroadcast(activityPush, channelID: channel.id, uniqueID: uniqueID, now: now, limits: limits)
                outcomes = applied
                return report
            }
            deliveries += outcomes.map { BroadcastDelivery(deviceID: install.deviceID, outcome: $0) }
        }
        return deliveries
    }

    /// After an activity started on a channel: the channel's stored message (policy 1, under 8
    /// hours old), if it has one, reaches it as it would have had it been there.
    func handOverStoredBroadcast(after report: ActivityReport, app: AppModel, install: AppInstall, on eventLoop: any EventLoop) {
        guard report.outcome == .started, let id = report.activityID, let channelID = app.activities.first(where: { $0.id == id })?.channelID else { return }
        let now = self.clock()
        guard let message = self.channels.read({ $0.subscribable(channelID, of: install.topic, now: now)?.storedMessage(at: now) }) else { return }
        let push = ActivityPush(payload: Array(message.payload.utf8), priority: message.priority)
        let limits = self.activityLimits
        _ = self.changeActivities(install, broadcast: message.uniqueID, on: eventLoop) { app in
            app.receiveBroadcast(push, channelID: channelID, uniqueID: message.uniqueID, now: now, limits: limits, only: id).report
        }
        self.metrics?.broadcast.delivered(1)
    }

    /// How many running activities are subscribed to each channel of `bundleID` (all bundles when nil).
    func subscriptionCounts(bundleID: String? = nil) -> [String: Int] {
        self.state.withLock { state in
            var counts: [String: Int] = [:]
            for (install, app) in state.apps where bundleID == nil || install.topic == bundleID {
                for activity in app.activities where activity.isRunning {
                    if let channel = activity.channelID { counts[channel, default: 0] += 1 }
                }
            }
            return counts
        }
    }
}

extension Phone {
    /// Running activities subscribed to a channel, and the devices they run on.
    func subscriberTotals() -> (subscriptions: Int, devices: Int) {
        self.state.withLock { state in
            var subscriptions = 0
            var devices: Set<String> = []
            for (install, app) in state.apps {
                let count = app.activities.lazy.filter { $0.isRunning && $0.channelID != nil }.count
                subscriptions += count
                if count > 0 { devices.insert(install.deviceID) }
            }
            return (subscriptions, devices.count)
        }
    }
}

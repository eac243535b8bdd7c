import APNsCore
import APNsDevice
import APNsInspection
import APNsStore
import Foundation
import Logging
import NIOCore

/// The emulated phone's side of every device, by concern, each with its own state and lock:
///
/// - ``PhoneApps``: every app's settings and Notification Center, the one state the concerns
///   share, changed under the apps' lock and kept in step with each concern's index;
/// - ``PhoneNotifications``: how each notification handed to a device is presented (through
///   ``ServiceExtensions`` when the app has one), and the user's responses;
/// - ``LiveActivities``: ActivityKit's tokens, the pushes and broadcasts that reach activities,
///   the clock's changes to them;
/// - ``PhoneWebApps``: web pages and Home Screen web apps, their subscriptions and pushes;
/// - ``PhoneFocus``: each device's Focus and the Scheduled Summaries;
/// - ``LocalScheduler``: local notifications, scheduled and fired;
/// - ``OwnDeviceBook``: the devices that are the phone's own.
///
/// A lock of a concern is taken after the apps' lock when both are held and never the other way
/// round: each lock is a ``RankedMutex`` and debug builds stop on a lock taken out of
/// ``LockRank``'s order. The ids and tokens it issues come from ``EmulatorIDs``.
///
/// Thread-safe.
public final class Phone: Sendable {
    let apps: PhoneApps
    let notifications: PhoneNotifications
    let activities: LiveActivities
    let webApps: PhoneWebApps
    let focus: PhoneFocus
    let local: LocalScheduler
    let ownDevices: OwnDeviceBook
    /// The ids and tokens the phone's concerns issue.
    let ids: EmulatorIDs
    let journal: Journal
    let clock: @Sendable () -> Int64
    let logger: Logger

    init(
        store: NotificationStore, hub: DeliveryHub, journal: Journal, clock: @escaping @Sendable () -> Int64, logger: Logger,
        activityLimits: ActivityLimits = ActivityLimits(), metrics: EmulatorMetrics? = nil, channels: BroadcastChannels,
        ids: EmulatorIDs = EmulatorIDs(shard: nil), power: DevicePowerBook = DevicePowerBook()
    ) {
        (self.ids, self.journal, self.clock, self.logger) = (ids, journal, clock, logger)
        let deviceless = IndexLock(DevicelessTokens())
        let scheduled = IndexLock(ScheduledApps())
        let activityIndex = IndexLock(ActivityIndex(limits: activityLimits))
        let webAppIndex = IndexLock(WebAppIndex())
        let focuses = DeviceFocuses()
        let ledger = PresentationLedger()
        let apps = PhoneApps(
            store: store, logger: logger, indexes: [deviceless.track, scheduled.track, activityIndex.track, webAppIndex.track],
            focuses: focuses)
        let ownDevices = OwnDeviceBook()
        let webApps = PhoneWebApps(apps: apps, index: webAppIndex, ids: ids, ownDevices: ownDevices, clock: clock)
        let focus = PhoneFocus(apps: apps, focuses: focuses, ledger: ledger, journal: journal, clock: clock, logger: logger)
        self.apps = apps
        self.ownDevices = ownDevices
        self.webApps = webApps
        self.focus = focus
        self.notifications = PhoneNotifications(
            apps: apps, deviceless: deviceless, ledger: ledger, extensions: ServiceExtensions(clock: clock), webApps: webApps,
            focus: focus, journal: journal, clock: clock, logger: logger)
        self.activities = LiveActivities(
            apps: apps, index: activityIndex, limits: activityLimits, channels: channels, power: power, hub: hub,
            journal: journal, metrics: metrics, ids: ids, clock: clock, logger: logger)
        self.local = LocalScheduler(apps: apps, scheduled: scheduled, ids: ids, ledger: ledger, clock: clock, logger: logger)
        let stored = apps.loadStored()
        focuses.load(stored)
        focus.load(stored)
    }

    /// What the phone does with a notification no connected device took: present it now (a
    /// token no device holds), apply it to a Live Activity, or nothing. One lock and set
    /// lookups: this is on the accept path. Returns, for a Live Activity push, the future of
    /// its application being durable; `nil` when there is nothing to wait for. `deviceless`:
    /// ``PhoneNotifications/presentsAtAcceptance(_:)`` as the relay found it at acceptance (not
    /// looked up twice).
    func takeUndelivered(
        _ notification: APNsCore.Notification, deviceless: Bool, on eventLoop: any EventLoop
    ) -> EventLoopFuture<Void>? {
        let token = notification.token
        if deviceless {
            self.notifications.present(notification, on: eventLoop)
        } else if let key = self.activities.index.withLock({ $0.tokens.isEmpty ? nil : $0.tokens[token] }) {
            return self.activities.receiveActivityPush(notification, at: key, on: eventLoop)
        }
        return nil
    }

    /// Makes `deviceID` one of the phone's own devices (a seed declared it), with the web apps
    /// subscribed on it.
    func adopt(device deviceID: String) {
        let webApps = self.webApps.index.withLock { $0.devicesByToken() }.filter { $0.value == deviceID }
        self.ownDevices.adopt(device: deviceID, tokens: webApps.keys)
    }

    /// Empties every Notification Center, and with `devices` forgets every app (the store is
    /// emptied alongside by the reset operation), each concern with it.
    func reset(devices: Bool) {
        self.apps.reset(devices: devices) {
            if devices {
                self.ownDevices.reset()
                self.local.scheduled.reset()
                self.activities.index.reset()
                self.webApps.index.reset()
            }
            self.notifications.reset(devices: devices)
            self.focus.reset(devices: devices)
        }
    }

    /// A value as JSON text, for the device protocol and the admin API.
    static func json<T: Encodable>(_ value: T) -> [UInt8] {
        Array(PhoneJSON.encoded(value).utf8)
    }
}

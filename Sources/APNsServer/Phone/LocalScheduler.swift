import APNsCore
import APNsDevice
import APNsInspection
import APNsStore
import Logging
import NIOCore

/// Local notifications: apps schedule them on the phone; when one is due it becomes a
/// notification like a remote one (source `local`), queued for its device, journaled and
/// presented the same way. Keeps the apps with requests pending (``ScheduledApps``).
///
/// Thread-safe.
final class LocalScheduler: Sendable {
    let apps: PhoneApps
    /// The apps with requests pending.
    let scheduled: IndexLock<ScheduledApps>
    /// The ids of the notifications requests fire.
    let ids: EmulatorIDs
    /// Which request each fired notification came from, for its presentation.
    let ledger: PresentationLedger
    let clock: @Sendable () -> Int64
    let logger: Logger

    init(
        apps: PhoneApps, scheduled: IndexLock<ScheduledApps>, ids: EmulatorIDs, ledger: PresentationLedger,
        clock: @escaping @Sendable () -> Int64, logger: Logger
    ) {
        (self.apps, self.scheduled, self.ids, self.ledger, self.clock, self.logger) = (
            apps, scheduled, ids, ledger, clock, logger
        )
    }

    /// Schedules a request for an app (replacing one with its identifier); the future holds it,
    /// with its next fire time, and what the 64-request limit pushed out.
    func schedule(
        _ document: ScheduleDocument, for install: AppInstall, on eventLoop: any EventLoop
    ) -> EventLoopFuture<(LocalNotificationRequest, evicted: [LocalNotificationRequest])> {
        let now = self.clock()
        return self.apps.change(install, on: eventLoop) {
            (app: inout AppModel) -> (LocalNotificationRequest, evicted: [LocalNotificationRequest]) in
            let next = document.trigger.nextFire(after: now, scheduledAt: now, deviceTimeZone: app.deviceTimeZone)
            let request = LocalNotificationRequest(
                identifier: document.identifier, content: document.content, trigger: document.trigger, scheduledAt: now,
                nextFireAt: next)
            let evicted = app.schedule(request)
            return (request, evicted)
        }.map { $0.0 }
    }

    /// The answer to a schedule, for the admin API and the device protocol alike.
    static func scheduledJSON(_ request: LocalNotificationRequest, evicted: [LocalNotificationRequest]) -> [UInt8] {
        Array(#"{"request":\#(PhoneJSON.encoded(request)),"evicted":\#(PhoneJSON.encoded(evicted.map(\.identifier)))}"#.utf8)
    }

    /// A list of pending requests, for the admin API and the device protocol alike.
    static func pendingJSON(_ pending: [LocalNotificationRequest]) -> [UInt8] {
        Array(#"{"total":\#(pending.count),"items":\#(PhoneJSON.encoded(pending))}"#.utf8)
    }

    /// Cancels one pending request (or all); what it already put in Notification Center goes too
    /// (seed 000: cancelling also takes a displayed notification away). The future holds how many
    /// pending requests went.
    func cancel(_ identifier: String?, for install: AppInstall, on eventLoop: any EventLoop) -> EventLoopFuture<Int> {
        self.apps.change(install, on: eventLoop) { (app: inout AppModel) -> Int in
            let before = app.pending.count
            if let identifier {
                app.pending.removeAll { $0.identifier == identifier }
                app.delivered.removeAll { $0.requestIdentifier == identifier }
            } else {
                app.pending.removeAll()
                app.delivered.removeAll { $0.requestIdentifier != nil }
            }
            return before - app.pending.count
        }.map { $0.0 }
    }

    /// The device moved: every app of it whose region requests the move entered or left takes
    /// them (with location authorization). The future holds the notifications they fire, for
    /// the relay to accept (``Relay/move(_:to:on:)``), and the requests' identifiers.
    func move(
        _ install: AppInstall, to point: Coordinate, on eventLoop: any EventLoop
    ) -> EventLoopFuture<(fired: [String], notifications: [APNsCore.Notification])> {
        let now = self.clock()
        let installs: [AppInstall]
        do {
            installs = Array(Set(try self.apps.installs(onDevice: install.deviceID) + [install]))
        } catch {
            return eventLoop.makeFailedFuture(error)
        }
        let moved = installs.map { app in
            self.apps.change(app, on: eventLoop) { (model: inout AppModel) in model.moved(to: point) }.map { fired, _ in
                (fired.map(\.identifier), fired.compactMap { self.notification(firing: $0, for: app, at: now) })
            }
        }
        return EventLoopFuture.whenAllSucceed(moved, on: eventLoop).map {
            (fired: $0.flatMap(\.0), notifications: $0.flatMap(\.1))
        }
    }

    /// Takes every request due by the clock out of its app; the future holds the notifications
    /// they fire, for the relay to accept (``Relay/fireDue(on:)``). An app whose change fails
    /// fires nothing now (its requests stay pending).
    func takeDue(on eventLoop: any EventLoop) -> EventLoopFuture<[APNsCore.Notification]> {
        let now = self.clock()
        let installs = self.scheduled.withLock { Array($0.installs) }
        guard !installs.isEmpty else { return eventLoop.makeSucceededFuture([]) }
        let taken = installs.map { install in
            self.apps.change(install, on: eventLoop) { (app: inout AppModel) in
                app.takeDue(now: now, deviceTimeZone: app.deviceTimeZone)
            }
            .map { due, _ in due.compactMap { self.notification(firing: $0, for: install, at: now) } }
            .recover { _ in [] }
        }
        return EventLoopFuture.whenAllSucceed(taken, on: eventLoop).map { $0.flatMap { $0 } }
    }

    /// The notification a local request fires: to its app's valid token, from the phone itself
    /// (source `local`); nil, logged, when the app holds no valid token.
    private func notification(
        firing request: LocalNotificationRequest, for install: AppInstall, at now: Int64
    ) -> APNsCore.Notification? {
        let token: DeviceToken?
        let environment: APNsEnvironment?
        do {
            token = try self.apps.token(of: install)
            // The environment of the token's build: the phone's own notification is never refused as sent to the other.
            environment = try token.flatMap { token throws(StoreError) in try self.apps.store.token(token)?.environment }
        } catch {
            self.logger.warning(
                "could not find the token of an app", metadata: ["apns.app": "\(install)", "store.error": "\(error)"])
            return nil
        }
        guard let token else {
            self.logger.info(
                "a local notification fired for an app with no valid token; dropped",
                metadata: ["apns.app": "\(install)", "apns.local_id": "\(request.identifier)"])
            return nil
        }
        let uniqueID = self.ids.timeOrdered(nowMillis: now)
        self.ledger.fired(uniqueID, from: request.identifier)
        return APNsCore.Notification(
            apnsID: self.ids.timeOrdered(nowMillis: now), uniqueID: uniqueID, token: token,
            topic: install.topic, pushType: .alert,
            priority: .immediate,
            expiration: nil, collapseID: nil, payload: request.content.payload, receivedAt: now, source: .local,
            environment: environment ?? .development
        )
    }
}

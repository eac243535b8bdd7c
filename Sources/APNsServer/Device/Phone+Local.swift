import APNsCore
import APNsDevice
import APNsInspection
import APNsStore
import Foundation
import NIOCore

/// Local notifications: apps schedule them on the phone; when one is due it becomes a
/// notification like a remote one (source `local`), queued for its device, journaled and
/// presented the same way.
extension Phone {
    /// Schedules a request for an app (replacing one with its identifier); the future holds it,
    /// with its next fire time, and what the 64-request limit pushed out.
    func schedule(_ document: ScheduleDocument, for install: AppInstall, on eventLoop: any EventLoop) -> EventLoopFuture<(LocalNotificationRequest, evicted: [LocalNotificationRequest])> {
        let now = self.clock()
        return self.change(install, on: eventLoop) { (app: inout AppModel) -> (LocalNotificationRequest, evicted: [LocalNotificationRequest]) in
            let next = document.trigger.nextFire(after: now, scheduledAt: now, deviceTimeZone: app.deviceTimeZone)
            let request = LocalNotificationRequest(identifier: document.identifier, content: document.content, trigger: document.trigger, scheduledAt: now, nextFireAt: next)
            let evicted = app.schedule(request)
            return (request, evicted)
        }.map { $0.0 }
    }

    /// Schedules a request as ``schedule(_:for:on:)`` does, then fires what is already due (an
    /// interval of 0.5 s on a moved clock fires at once).
    func schedule(
        _ document: ScheduleDocument, for install: AppInstall, through relay: Relay, on eventLoop: any EventLoop
    ) -> EventLoopFuture<(LocalNotificationRequest, evicted: [LocalNotificationRequest])> {
        self.schedule(document, for: install, on: eventLoop).flatMap { scheduled in
            self.fireDue(through: relay, on: eventLoop).map { scheduled }
        }
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
        self.change(install, on: eventLoop) { (app: inout AppModel) -> Int in
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

    /// The device moved: every app of it whose region requests the move entered or left fires
    /// them (with location authorization). The future holds what fired, once stored.
    func move(_ install: AppInstall, to point: Coordinate, through relay: Relay, on eventLoop: any EventLoop) -> EventLoopFuture<[String]> {
        let now = self.clock()
        let installs: [AppInstall]
        do {
            installs = Array(Set(try self.installs(onDevice: install.deviceID) + [install]))
        } catch {
            return eventLoop.makeFailedFuture(error)
        }
        let moved = installs.map { app in
            self.change(app, on: eventLoop) { (model: inout AppModel) in model.moved(to: point) }.flatMap { fired, _ -> EventLoopFuture<[String]> in
                let stored = fired.map { self.fire($0, for: app, at: now, through: relay, on: eventLoop) }
                return EventLoopFuture.andAllComplete(stored, on: eventLoop).map { fired.map(\.identifier) }
            }
        }
        return EventLoopFuture.whenAllSucceed(moved, on: eventLoop).map { $0.flatMap { $0 } }
    }

    /// Fires every request due by the clock: each is accepted through `relay` as a notification
    /// to its app's token (queued if the device is away). The future completes once all are stored.
    func fireDue(through relay: Relay, on eventLoop: any EventLoop) -> EventLoopFuture<Void> {
        let now = self.clock()
        let installs = self.state.withLock { Array($0.scheduled) }
        guard !installs.isEmpty else { return eventLoop.makeSucceededVoidFuture() }
        let fired = installs.map { install in
            self.change(install, on: eventLoop) { (app: inout AppModel) in app.takeDue(now: now, deviceTimeZone: app.deviceTimeZone) }
                .flatMap { due, _ -> EventLoopFuture<Void> in
                    let accepted = due.map { self.fire($0, for: install, at: now, through: relay, on: eventLoop) }
                    return EventLoopFuture.andAllComplete(accepted, on: eventLoop)
                }
        }
        return EventLoopFuture.andAllComplete(fired, on: eventLoop)
    }

    private func fire(_ request: LocalNotificationRequest, for install: AppInstall, at now: Int64, through relay: Relay, on eventLoop: any EventLoop) -> EventLoopFuture<Void> {
        let token: DeviceToken?
        do {
            token = try self.token(of: install)
        } catch {
            self.logger.warning("could not find the token of an app", metadata: ["apns.app": "\(install)", "store.error": "\(error)"])
            return eventLoop.makeSucceededVoidFuture()
        }
        guard let token else {
            self.logger.info("a local notification fired for an app with no valid token; dropped", metadata: ["apns.app": "\(install)", "apns.local_id": "\(request.identifier)"])
            return eventLoop.makeSucceededVoidFuture()
        }
        let uniqueID = self.ids.withLock { $0.timeOrderedUUID(nowMillis: now) }
        self.state.withLock { $0.localRequests[uniqueID] = request.identifier }
        let notification = APNsCore.Notification(
            apnsID: UUID().uuidString, uniqueID: uniqueID, token: token, topic: install.topic, pushType: .alert, priority: .immediate,
            expiration: nil, collapseID: nil, payload: request.content.payload, receivedAt: now, source: .local
        )
        return relay.accept(notification, on: eventLoop).map { outcome in
            if case .refused(let why) = outcome {
                self.logger.warning("a local notification could not be stored", metadata: ["apns.local_id": "\(request.identifier)", "store.error": "\(why)"])
            }
        }
    }

    /// The valid token an app install holds: its own for a token without a device, else the one
    /// its device registered for the topic.
    func token(of install: AppInstall) throws(StoreError) -> DeviceToken? {
        if let token = Self.devicelessToken(install) { return token }
        return try self.store.tokens().last { $0.deviceID == install.deviceID && $0.topic == install.topic && $0.unregisteredAt == nil }?.token
    }
}

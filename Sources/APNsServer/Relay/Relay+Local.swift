import APNsCore
import APNsDevice
import Logging
import NIOCore

/// Local notifications reach the store like remote ones: the phone decides what fires, the relay
/// accepts it (queued for its device, journaled, presented when handed over).
extension Relay {
    /// Schedules a request for an app, then fires what is already due (an interval of 0.5 s on
    /// a moved clock fires at once).
    func schedule(
        _ document: ScheduleDocument, for install: AppInstall, on eventLoop: any EventLoop
    ) -> EventLoopFuture<(LocalNotificationRequest, evicted: [LocalNotificationRequest])> {
        self.phone.local.schedule(document, for: install, on: eventLoop).flatMap { scheduled in
            self.fireDue(on: eventLoop).map { scheduled }
        }
    }

    /// Fires every request due by the clock; the future completes once all are stored, and
    /// once every firing begun before it has stored what it took. A moved clock's answer thus
    /// waits for the notifications the half-second timer had just taken out of the phone: without
    /// that, a journal read right after the move found nothing (a flake under CI's load).
    func fireDue(on eventLoop: any EventLoop) -> EventLoopFuture<Void> {
        let promise = eventLoop.makePromise(of: Void.self)
        let previous = self.lastFiring.withLock { last -> EventLoopFuture<Void>? in
            defer { last = promise.futureResult }
            return last
        }
        let ready = previous.map { $0.hop(to: eventLoop).recover { _ in } } ?? eventLoop.makeSucceededVoidFuture()
        ready.flatMap { self.phone.local.takeDue(on: eventLoop) }.flatMap { self.acceptLocal($0, on: eventLoop) }.cascade(
            to: promise)
        return promise.futureResult
    }

    /// The device moved: the region requests it triggered fire. The future holds their
    /// identifiers once stored.
    func move(_ install: AppInstall, to point: Coordinate, on eventLoop: any EventLoop) -> EventLoopFuture<[String]> {
        self.phone.local.move(install, to: point, on: eventLoop).flatMap { moved in
            self.acceptLocal(moved.notifications, on: eventLoop).map { moved.fired }
        }
    }

    private func acceptLocal(_ notifications: [Notification], on eventLoop: any EventLoop) -> EventLoopFuture<Void> {
        let logger = self.phone.logger
        let accepted = notifications.map { notification in
            self.accept(notification, on: eventLoop).map { outcome in
                if case .refused(let why) = outcome {
                    logger.warning(
                        "a local notification could not be stored",
                        metadata: ["apns.unique_id": "\(notification.uniqueID)", "store.error": "\(why)"])
                }
            }
        }
        return EventLoopFuture.andAllComplete(accepted, on: eventLoop)
    }
}

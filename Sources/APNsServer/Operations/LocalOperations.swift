import APNsCore
import APNsDevice
import APNsInspection
import NIOCore

/// What the admin API and the device protocol do to an app's local notifications, one operation
/// per UserNotifications call: the same documents, checks and refusals (``PhoneRefusal``), the
/// same JSON.
struct LocalOperations {
    let phone: Phone
    let relay: Relay

    /// The app's pending requests (`getPendingNotificationRequests`).
    func pending(_ install: AppInstall) -> Result<[UInt8], PhoneRefusal> {
        do {
            return .success(LocalScheduler.pendingJSON(try self.phone.apps.app(install).pending))
        } catch {
            return .failure(PhoneRefusal(.failedReading, "could not read the pending requests: \(error)"))
        }
    }

    /// The request a door's document schedules (the admin API's body, a device's schedule frame);
    /// an invalid refusal, with an example, when it does not decode.
    static func readSchedule(_ document: [UInt8]) throws(PhoneRefusal) -> ScheduleDocument {
        try PhoneRefusal.reading(ScheduleDocument.self, from: document, example: ScheduleDocument.example)
    }

    /// `UNUserNotificationCenter.add`: the request with when it fires next, and what the
    /// 64-request limit pushed out. A request with the same identifier is replaced. An app with no
    /// token on the device has nowhere to show one (a conflict).
    func schedule(
        _ document: ScheduleDocument, for install: AppInstall, on eventLoop: any EventLoop
    ) -> EventLoopFuture<(LocalNotificationRequest, evicted: [LocalNotificationRequest])> {
        do {
            // A local notification reaches the device through the app's token, as a remote one does.
            guard try self.phone.apps.token(of: install) != nil else {
                throw PhoneRefusal(
                    .conflict,
                    "\(install.topic) holds no token on this device: register the topic first (local notifications are shown through the app's token)"
                )
            }
            return self.relay.schedule(document, for: install, on: eventLoop)
                .flatMapErrorThrowing { throw PhoneRefusal($0, saving: "the request") }
        } catch {
            return eventLoop.makeFailedFuture(PhoneRefusal(error, saving: "the request"))
        }
    }

    /// `removePendingNotificationRequests` (one, 404 when there is none by that name) or
    /// `removeAllPendingNotificationRequests` (`identifier` nil): how many were removed.
    func cancel(_ identifier: String?, for install: AppInstall, on eventLoop: any EventLoop) -> EventLoopFuture<Int> {
        self.phone.local.cancel(identifier, for: install, on: eventLoop).flatMapThrowing { removed in
            if let identifier, removed == 0 { throw PhoneRefusal.notFound("no pending request \(identifier)") }
            return removed
        }.flatMapErrorThrowing { throw PhoneRefusal($0, saving: "the cancellation") }
    }

    /// The place a door's document gives (`{"latitude", "longitude"}`: the admin API's body, a
    /// seed's location); an invalid refusal, with an example, when it does not decode.
    static func readLocation(_ document: [UInt8]) throws(PhoneRefusal) -> Coordinate {
        try PhoneRefusal.reading(LocationDocument.self, from: document, example: LocationDocument.example).coordinate
    }

    /// The device is at `point` now: the region requests it entered or left fire; their identifiers.
    func move(_ install: AppInstall, to point: Coordinate, on eventLoop: any EventLoop) -> EventLoopFuture<[String]> {
        self.relay.move(install, to: point, on: eventLoop).flatMapErrorThrowing {
            throw PhoneRefusal($0, saving: "the device's location")
        }
    }
}

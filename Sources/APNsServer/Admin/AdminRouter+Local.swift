import APNsCore
import APNsDevice
import APNsInspection
import NIOCore

/// `/api/v1/devices/<token>/pending[/<id>]`: the app's pending local notifications.
extension AdminRouter {
    func pending(of token: DeviceToken) -> Response {
        let found = self.phoneInstall(of: token)
        guard let install = found.install else { return found.refusal }
        do {
            let pending = try self.phone.app(install).pending
            return Response(status: 200, body: Phone.pendingJSON(pending))
        } catch {
            return Self.error(.internalError, "could not read the pending requests: \(error)")
        }
    }

    /// `POST .../pending`: the app schedules a request (201, with when it fires next); one with the
    /// same identifier is replaced, and the 64-request limit may push the latest-firing out.
    func schedule(for token: DeviceToken, body: [UInt8], on eventLoop: any EventLoop) -> EventLoopFuture<Response> {
        let found = self.phoneInstall(of: token)
        guard let install = found.install else { return eventLoop.makeSucceededFuture(found.refusal) }
        let document: ScheduleDocument
        do {
            document = try RequestDocument.decode(ScheduleDocument.self, from: body, example: ScheduleDocument.example)
        } catch {
            return eventLoop.makeSucceededFuture(Self.error(.badRequest, error.message))
        }
        return self.relay.schedule(document, for: install, on: eventLoop)
            .map { request, evicted in Response(status: 201, body: Phone.scheduledJSON(request, evicted: evicted)) }
            .recover { Self.error(.unavailable, "could not schedule: \($0)") }
    }

    /// `DELETE .../pending[/<id>]`: cancels one (404 when there is none by that name) or all.
    func cancel(for token: DeviceToken, _ identifier: String?, on eventLoop: any EventLoop) -> EventLoopFuture<Response> {
        let found = self.phoneInstall(of: token)
        guard let install = found.install else { return eventLoop.makeSucceededFuture(found.refusal) }
        return self.phone.cancel(identifier, for: install, on: eventLoop).map { removed in
            if let identifier, removed == 0 { return Self.error(.notFound, "no pending request \(identifier)") }
            return Response(status: 200, body: Array(#"{"removed":\#(removed)}"#.utf8))
        }.recover { Self.error(.unavailable, "could not cancel: \($0)") }
    }

    /// `POST .../location` `{"latitude", "longitude"}`: the device is there now; region requests
    /// it entered or left fire. `{"fired": [identifiers]}`.
    func move(_ token: DeviceToken, body: [UInt8], on eventLoop: any EventLoop) -> EventLoopFuture<Response> {
        let found = self.phoneInstall(of: token)
        guard let install = found.install else { return eventLoop.makeSucceededFuture(found.refusal) }
        let point: Coordinate
        do {
            point = try RequestDocument.decode(LocationDocument.self, from: body, example: LocationDocument.example).coordinate
        } catch {
            return eventLoop.makeSucceededFuture(Self.error(.badRequest, error.message))
        }
        return self.relay.move(install, to: point, on: eventLoop).map { fired in
            Response(status: 200, body: Array(#"{"fired":\#(PhoneJSON.encoded(fired))}"#.utf8))
        }.recover { Self.error(.unavailable, "could not move the device: \($0)") }
    }
}

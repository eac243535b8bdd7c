import APNsCore
import APNsInspection
import NIOCore

/// The routes that take the whole world: its export as a seed document and its reset. The reset
/// is an operation of its own (``Reset``), which holds every part it empties.
struct WorldRoutes: Sendable {
    typealias Response = AdminRouter.Response
    /// The world as a seed document, when this admin API has one to export.
    let world: WorldExport?
    let reset: Reset

    /// `POST /api/v1/export`: the world as a seed document (`serve --seed` of it starts the
    /// same one). This emulator's alone: on a shard of a cluster, each shard exports its own.
    func export() throws(AdminError) -> Response {
        guard let world = self.world else { throw AdminError(.unavailable, "this admin API has no world to export") }
        do {
            return Response(status: 200, body: try world.document().prettyPrinted)
        } catch {
            throw AdminError(.internalError, "could not read the world to export it: \(error)")
        }
    }

    /// `POST /api/v1/reset`: empties queues, journal, log and feedback, removes fault rules,
    /// forgets the providers the report card saw and zeroes counters; with `devices` (query flag or `{"devices": true}`), forgets tokens too.
    func reset(
        _ query: QueryParameters, body: [UInt8], on eventLoop: any EventLoop
    ) throws(AdminError) -> EventLoopFuture<Response> {
        let fromBody = try AdminRouter.read(ResetDocument.decode(body).devices)
        let devices = try AdminRouter.read(query.flag("devices")) || fromBody
        return self.reset.run(devices: devices, on: eventLoop).map {
            Response(status: 200, body: Array(#"{"reset":true,"devices":\#(devices)}"#.utf8))
        }.failing(as: .unavailable)
    }

    /// Their entries in ``AdminRoute/table``.
    static let routes: [AdminRoute] = [
        AdminRoute("POST", "/api/v1/export", on: \.worldRoutes) { routes, request throws(AdminError) in
            try request.now(routes.export())
        },
        AdminRoute("POST", "/api/v1/reset", query: ["devices"], cluster: .everyShard, on: \.worldRoutes) {
            routes, request throws(AdminError) in
            try request.later(routes.reset(request.query, body: request.body, on: request.eventLoop))
        },
    ]
}

extension AdminRouter {
    var worldRoutes: WorldRoutes {
        WorldRoutes(
            world: self.world,
            reset: Reset(
                inspection: self.inspection, clock: self.clock, phone: self.phone, channels: self.channels, power: self.power,
                hub: self.hub, relay: self.relay))
    }
}

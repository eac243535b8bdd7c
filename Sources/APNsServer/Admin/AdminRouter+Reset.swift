import APNsCore
import APNsInspection
import NIOCore

extension AdminRouter {
    /// `POST /api/v1/reset`: empties queues, journal, log and feedback, removes fault rules,
    /// forgets the providers the report card saw and zeroes counters; with `devices` (query flag or `{"devices": true}`), forgets tokens too.
    func reset(
        _ query: QueryParameters, body: [UInt8], on eventLoop: any EventLoop
    ) throws(AdminError) -> EventLoopFuture<Response> {
        let fromBody = try Self.read(ResetDocument.decode(body).devices)
        let devices = try Self.read(query.flag("devices")) || fromBody
        let reset = Reset(
            inspection: self.inspection, clock: self.clock, phone: self.phone, channels: self.channels, power: self.power,
            hub: self.hub, relay: self.relay)
        return reset.run(devices: devices, on: eventLoop).map {
            Response(status: 200, body: Array(#"{"reset":true,"devices":\#(devices)}"#.utf8))
        }.failing(as: .unavailable)
    }
}

import APNsCore
import APNsDevice
import APNsInspection
import Foundation
import NIOCore

extension AdminRouter {
    /// `GET /api/v1/channels?bundleId=`, `GET /api/v1/channels/<id>` (the id percent-encoded or
    /// not: a base64 id may hold `/`), `PUT /api/v1/apps/<bundleId>/broadcast`.
    func routeChannels(_ request: Request) throws(InspectionError) -> EventLoopFuture<Reply> {
        let segments = request.segments
        let now = self.clock.nowMillis
        if segments[2] == "apps" {
            let bundleID = segments[3]
            return try request.only("PUT") { () throws(InspectionError) in
                let document = try RequestDocument.decode(BroadcastSettingDocument.self, from: request.body, example: BroadcastSettingDocument.example)
                return request.later(
                    self.relay.channels.setEnabled(bundleID, document.enabled, on: request.eventLoop).map { deleted in
                        var writer = JSONWriter()
                        writer.object { members in
                            members.member("bundleId") { $0.string(bundleID) }
                            members.member("enabled") { $0.raw(document.enabled ? "true" : "false") }
                            members.member("deletedChannels") { $0.number(deleted.count) }
                        }
                        return Response(status: 200, body: writer.bytes)
                    }.recover { Self.error(503, "could not save the setting: \($0)") })
            }
        }
        return try request.only("GET") {
            let subscribers = self.relay.phone.subscriptionCounts()
            guard segments.count > 3 else {
                let bundleID = request.query["bundleId"]
                let channels = self.relay.channels.read { book in
                    book.channels.values.filter { !$0.isDeleted && (bundleID == nil || $0.bundleID == bundleID) }.sorted { ($0.createdAt, $0.id) < ($1.createdAt, $1.id) }
                }
                return request.now(Response(status: 200, body: ChannelJSON.list(channels, subscribers: subscribers, now: now)))
            }
            let raw = segments[3...].joined(separator: "/")
            let id = raw.removingPercentEncoding ?? raw
            guard let channel = self.relay.channels.read({ $0.channels[id] }) else { return request.now(Self.error(404, "no broadcast channel \(id)")) }
            return request.now(Response(status: 200, body: ChannelJSON.one(channel, subscribers: subscribers[id] ?? 0, now: now)))
        }
    }
}

import APNsCore
import APNsDevice
import APNsInspection
import NIOCore

/// `GET /api/v1/channels?bundleId=`, `GET /api/v1/channels/<id>` (the id percent-encoded or
/// not: a base64 id may hold `/`), `PUT /api/v1/apps/<bundleId>/broadcast`. They hold the
/// channels, the phone's Live Activities (who subscribes) and the clock, and nothing else.
struct ChannelRoutes: Sendable {
    typealias Response = AdminRouter.Response
    let channels: BroadcastChannels
    let activities: LiveActivities
    let clock: EmulatorClock

    func channelList(bundleID: String?) -> Response {
        let subscribers = self.activities.subscriptionCounts()
        let channels = self.channels.read { book in
            book.channels.values.filter { !$0.isDeleted && (bundleID == nil || $0.bundleID == bundleID) }.sorted {
                ($0.createdAt, $0.id) < ($1.createdAt, $1.id)
            }
        }
        return Response(status: 200, body: ChannelJSON.list(channels, subscribers: subscribers, now: self.clock.nowMillis))
    }

    func channel(id: String) throws(AdminError) -> Response {
        guard let channel = self.channels.read({ $0.channels[id] }) else {
            throw AdminError(.notFound, "no broadcast channel \(id)")
        }
        let subscribers = self.activities.subscriptionCounts()
        return Response(status: 200, body: ChannelJSON.one(channel, subscribers: subscribers[id] ?? 0, now: self.clock.nowMillis))
    }

    /// `PUT /api/v1/apps/<bundleId>/broadcast` `{"enabled"}`: the app's broadcast capability;
    /// turning it off deletes the app's channels, as Apple's developer portal does.
    func setBroadcast(
        _ bundleID: String, body: [UInt8], on eventLoop: any EventLoop
    ) throws(AdminError) -> EventLoopFuture<Response> {
        let document = try AdminRouter.read(
            RequestDocument.decode(BroadcastSettingDocument.self, from: body, example: BroadcastSettingDocument.example))
        return self.channels.setEnabled(bundleID, document.enabled, on: eventLoop).map { deleted in
            var writer = JSONWriter()
            writer.object { members in
                members.member("bundleId") { $0.string(bundleID) }
                members.member("enabled") { $0.raw(document.enabled ? "true" : "false") }
                members.member("deletedChannels") { $0.number(deleted.count) }
            }
            return Response(status: 200, body: writer.bytes)
        }.failing(as: .unavailable, "could not save the setting: ")
    }

    /// Their entries in ``AdminRoute/table``.
    static let routes: [AdminRoute] = [
        AdminRoute("GET", "/api/v1/channels", query: ["bundleId"], on: \.channelRoutes) { routes, request in
            request.now(routes.channelList(bundleID: request.query["bundleId"]))
        },
        AdminRoute("GET", "/api/v1/channels/{id*}", on: \.channelRoutes) { routes, request throws(AdminError) in
            let raw = request[path: "id"]
            return try request.now(routes.channel(id: raw.removingPercentEncoding ?? raw))
        },
        AdminRoute("PUT", "/api/v1/apps/{bundleId}/broadcast", cluster: .everyShard, on: \.channelRoutes) {
            routes, request throws(AdminError) in
            try request.later(routes.setBroadcast(request[path: "bundleId"], body: request.body, on: request.eventLoop))
        },
    ]
}

extension AdminRouter {
    var channelRoutes: ChannelRoutes {
        ChannelRoutes(channels: self.channels, activities: self.phone.activities, clock: self.clock)
    }
}

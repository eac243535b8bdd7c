import APNsCore
import APNsDevice
import APNsInspection
import Foundation
import NIOCore

/// The routes shards call on each other for broadcast channels: a peer that was down reads the
/// channels this shard owns, and the owner of a channel hands it (with a broadcast on it) to the
/// others. They hold the channels, the phone's Live Activities a broadcast fans out to, and this shard's place.
struct ClusterChannelRoutes: Sendable {
    typealias Response = AdminRouter.Response
    let channels: BroadcastChannels
    let activities: LiveActivities
    /// This shard's index among how many; nil outside a cluster.
    let shard: Shard?
    let metrics: BroadcastMetrics

    /// `GET /api/v1/cluster/channels`: the channels of the bundles this shard owns, deleted ones
    /// too, as a peer that was down asks for them.
    func ownedChannels() -> Response {
        let shard = self.shard
        let owned = self.channels.read { book in
            book.channels.values.filter {
                shard == nil || Shard.index(ofBundle: $0.bundleID, count: shard?.count ?? 1) == shard?.index
            }.sorted { $0.id < $1.id }
        }
        let body = (try? JSONEncoder().encode(owned)).map { Array($0) } ?? Array("[]".utf8)
        return Response(status: 200, body: body)
    }

    /// `POST /api/v1/cluster/channels`: a channel from the shard that owns it, and a broadcast
    /// on it to apply here.
    func adoptChannel(_ body: [UInt8], on eventLoop: any EventLoop) throws(AdminError) -> EventLoopFuture<Response> {
        guard let replica = try? JSONDecoder().decode(ChannelReplica.self, from: Data(body)),
            !replica.channel.id.isEmpty, !replica.channel.bundleID.isEmpty, (0...1).contains(replica.channel.storagePolicy)
        else {
            throw AdminError(
                .badRequest, "the body must be a channel as a shard sends it: {\"channel\": {...}, \"broadcast\": {...}}")
        }
        let activities = self.activities
        var deliveries: [LiveActivities.BroadcastDelivery] = []
        var news = LiveActivities.DeviceNews()
        let adopted = self.channels.adopt(replica.channel, on: eventLoop) { channel in
            guard let broadcast = replica.broadcast else { return }
            let push = BroadcastPush(
                requestID: "", channelID: channel.id,
                priority: Priority(rawValue: UInt8(clamping: broadcast.priority)) ?? .immediate, expiration: 0,
                payload: Array(broadcast.payload.utf8))
            deliveries = activities.fanOut(push, channel: channel, uniqueID: broadcast.uniqueID, news: &news, on: eventLoop)
        }
        let (reached, told) = (deliveries, news)
        adopted.whenComplete { _ in eventLoop.execute { activities.tell(told) } }
        let metrics = self.metrics
        return adopted.flatMapThrowing { result in
            if case .failure(let reason) = result {
                throw AdminError(.unavailable, "could not keep the channel: \(reason.explanation)")
            }
            if replica.broadcast != nil { metrics.delivered(reached.filter { $0.outcome.outcome == .applied }.count) }
            let outcomes = reached.map { BroadcastActivityOutcome(deviceID: $0.deviceID, $0.outcome) }
            let answer = (try? JSONEncoder().encode(ChannelReplica.Answer(outcomes: outcomes))).map { Array($0) } ?? []
            return Response(status: 200, body: answer)
        }
    }

    /// Their entries in ``AdminRoute/table``.
    static let routes: [AdminRoute] = [
        AdminRoute("GET", "/api/v1/cluster/channels", on: \.clusterChannelRoutes) { routes, request in
            request.now(routes.ownedChannels())
        },
        AdminRoute("POST", "/api/v1/cluster/channels", on: \.clusterChannelRoutes) { routes, request throws(AdminError) in
            try request.later(routes.adoptChannel(request.body, on: request.eventLoop))
        },
    ]
}

extension AdminRouter {
    var clusterChannelRoutes: ClusterChannelRoutes {
        ClusterChannelRoutes(
            channels: self.channels, activities: self.phone.activities, shard: self.cluster?.shard,
            metrics: self.inspection.metrics.broadcast)
    }
}

import APNsAdminClient
import APNsCore
import APNsInspection
import NIOCore

extension AdminRouter {
    /// `GET /api/v1/notifications/wait` over every shard: each waits, and the first match
    /// answers; 408 when none matched in time, with every shard's near misses. `after` names a
    /// notification of one shard: that shard waits after it, the others since its receipt.
    func clusterWait(_ request: Request, _ cluster: Cluster) throws(AdminError) -> EventLoopFuture<Reply> {
        let query = request.query
        _ = try self.journalFilter(query)
        let timeout = try Self.read(
            query.duration("timeout", fallback: NotificationRoutes.defaultWait, maximum: NotificationRoutes.maximumWait))
        var madeBy: Int?
        if let after = query["after"] {
            guard let index = Shard.index(ofUniqueID: after, count: cluster.shard.count) else {
                throw AdminError(.badRequest, "after must be the id of a notification in the journal")
            }
            madeBy = index
        }
        let (eventLoop, owner) = (request.eventLoop, madeBy)
        return self.receivedAt(of: query["after"], owner: owner, cluster, on: eventLoop).flatMap {
            since -> EventLoopFuture<Reply> in
            // The shard that made `after` waits after it; the others since it was received.
            func queryText(for shard: Int) -> String {
                owner == nil || owner == shard
                    ? query.encoded(setting: ["scope": nil])
                    : query.encoded(setting: ["scope": nil, "after": nil, "since": since.map { String($0) }])
            }
            let local: EventLoopFuture<Response>
            do throws(AdminError) {
                local = try self.notificationRoutes.wait(
                    QueryParameters(uri: "?" + queryText(for: cluster.shard.index)), on: eventLoop)
            } catch {
                return eventLoop.makeFailedFuture(error)
            }
            let peers = cluster.others.map { peer in
                cluster.forward(
                    "GET", request.path, query: queryText(for: peer.index), body: [], to: peer.index,
                    timeout: TimeAmount(timeout) + .seconds(2), on: eventLoop)
            }
            let own = local.map {
                Cluster.Reply(
                    shard: cluster.shard.index, address: "", answer: AdminHTTPClient.Answer(status: $0.status, body: $0.body))
            }
            return Self.firstMatch([own] + peers, cluster, on: eventLoop)
        }
    }

    /// When `id` was received, read from the shard that made it; nil without an id.
    private func receivedAt(
        of id: String?, owner: Int?, _ cluster: Cluster, on eventLoop: any EventLoop
    ) -> EventLoopFuture<Int64?> {
        guard let id, let owner else { return eventLoop.makeSucceededFuture(nil) }
        if owner == cluster.shard.index {
            return eventLoop.makeSucceededFuture(self.inspection.journal.entry(uniqueID: id)?.receivedAt)
        }
        return cluster.forward("GET", "/api/v1/notifications/" + id, query: "", body: [], to: owner, on: eventLoop).map { reply in
            reply.answer.flatMap { JSONValue.parse($0.body)?["receivedAt"]?.string }.flatMap(Timestamp.parse)
        }
    }

    /// The first waiting shard to answer 200 answers; else, once all have, 408 with their near
    /// misses (or the first other answer, such as a 400).
    private static func firstMatch(
        _ waits: [EventLoopFuture<Cluster.Reply>], _ cluster: Cluster, on eventLoop: any EventLoop
    ) -> EventLoopFuture<Reply> {
        let promise = eventLoop.makePromise(of: Reply.self)
        for wait in waits {
            wait.whenSuccess { reply in
                if let answer = reply.answer, answer.status == 200 {
                    promise.succeed(.response(Response(status: 200, body: answer.body)))
                }
            }
        }
        EventLoopFuture.whenAllSucceed(waits, on: eventLoop).whenSuccess { replies in
            if let other = replies.first(where: { $0.answer.map { $0.status != 408 } ?? false })?.answer {
                promise.succeed(.response(Response(status: other.status, body: other.body)))
                return
            }
            var misses: [JSONValue] = []
            var message = "no matching notification on any shard"
            for reply in replies {
                guard let answer = reply.answer, let body = JSONValue.parse(answer.body) else { continue }
                if case .array(let items)? = body["nearMisses"] { misses += items }
                if reply.shard == cluster.shard.index, let error = body["error"]?.string { message = error + " (on every shard)" }
            }
            var writer = JSONWriter()
            writer.object { members in
                members.member("error") { $0.string(message) }
                members.member("nearMisses") {
                    $0.array(misses.prefix(NotificationRoutes.nearMissCount * cluster.shard.count)) { $0.value($1) }
                }
                members.member("shards") {
                    Cluster.writeShards(
                        replies.filter { $0.answer != nil }.map(\.shard), replies.filter { $0.answer == nil }, into: &$0)
                }
            }
            promise.succeed(.response(Response(status: 408, body: writer.bytes)))
        }
        return promise.futureResult
    }

    /// `GET /metrics` over every shard: one exposition, each sample labelled with its shard,
    /// and `apns_cluster_shards_answered` saying how many shards it holds.
    func clusterMetrics(_ request: Request, _ cluster: Cluster) throws(AdminError) -> EventLoopFuture<Reply> {
        let local: Response
        do throws(AdminError) {
            local = try self.serviceRoutes.metrics()
        } catch {
            throw AdminError(.internalError, error.message)
        }
        return cluster.ask("GET", "/metrics", query: "", on: request.eventLoop).map { replies in
            let answered = replies.filter { $0.answer?.status == 200 }
            let texts =
                [(cluster.shard.index, String(decoding: local.body, as: UTF8.self))]
                + answered.map { ($0.shard, String(decoding: $0.answer?.body ?? [], as: UTF8.self)) }
            var text = ClusterMerge.metrics(texts)
            text += "# HELP apns_cluster_shards_answered Shards whose metrics this answer holds (of apns_cluster_shards).\n"
            text += "# TYPE apns_cluster_shards_answered gauge\napns_cluster_shards_answered \(answered.count + 1)\n"
            text +=
                "# HELP apns_cluster_shards Shards in the cluster.\n# TYPE apns_cluster_shards gauge\napns_cluster_shards \(cluster.shard.count)\n"
            for reply in replies where reply.answer?.status != 200 {
                text += "# shard \(reply.shard) (\(reply.address)) did not answer: \(reply.error ?? "")\n"
            }
            return .response(Response(status: 200, body: Array(text.utf8), contentType: local.contentType))
        }
    }
}

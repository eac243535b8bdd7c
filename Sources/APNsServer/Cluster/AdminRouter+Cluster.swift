import APNsCore
import APNsInspection
import NIOCore

/// The admin API on a shard of a cluster: what a person asks any shard is answered for all of
/// them (`scope=local` asks for this shard alone, as the shards ask each other).
extension AdminRouter {
    /// The cluster's answer to `request` by its route's policy, or nil when this shard answers it alone.
    func routeCluster(
        _ request: Request, _ route: AdminRoute, _ cluster: Cluster
    ) throws(AdminError) -> EventLoopFuture<Reply>? {
        switch route.cluster {
        case .local:
            return nil
        case .everyShard:
            return try self.everywhere(request, route, cluster)
        case .merged(let merge):
            return try self.merged(merge, request, route, cluster)
        case .tokenOwner:
            guard let token = DeviceToken(hex: request[path: "token"]), !cluster.shard.owns(token) else { return nil }
            return self.forward(request, to: Shard.index(of: token, count: cluster.shard.count), cluster)
        case .uniqueIDOwner:
            // A notification's unique id names the shard that made it (its last byte).
            guard let owner = Shard.index(ofUniqueID: request[path: "id"], count: cluster.shard.count),
                owner != cluster.shard.index
            else { return nil }
            return self.forward(request, to: owner, cluster)
        case .faultOwner:
            // A rule's id names its shard: s<K>-fault-<n>.
            guard let owner = Cluster.shard(ofFaultID: request[path: "id"], count: cluster.shard.count),
                owner != cluster.shard.index
            else { return nil }
            return self.forward(request, to: owner, cluster)
        case .activityHolder:
            // An activity's id does not name its shard: the shard that has it answers.
            guard self.phone.activities.owner(ofActivity: request[path: "id"]) == nil else { return nil }
            return self.firstFound(request, route, cluster)
        case .bodyTokenOwner:
            // The inbox's Send and `POST /api/v1/push` go to the shard that owns the token, as a push through HAProxy does.
            guard let hex = JSONValue.member("token", ofObjectIn: request.body)?.string, let token = DeviceToken(hex: hex),
                !cluster.shard.owns(token)
            else { return nil }
            return self.forward(request, to: Shard.index(of: token, count: cluster.shard.count), cluster)
        case .faultRule:
            // A rule for one token lives on the token's shard; any other on every shard.
            guard let hex = JSONValue.member("match", ofObjectIn: request.body)?["token"]?.string,
                let token = DeviceToken(hex: hex)
            else {
                return try self.everywhere(request, route, cluster)
            }
            return cluster.shard.owns(token)
                ? nil : self.forward(request, to: Shard.index(of: token, count: cluster.shard.count), cluster)
        }
    }

    /// Every shard's answers to `request`, merged as `merge` says.
    private func merged(
        _ merge: AdminRoute.Merge, _ request: Request, _ route: AdminRoute, _ cluster: Cluster
    ) throws(AdminError) -> EventLoopFuture<Reply> {
        switch merge {
        case .journalPage: return try self.clusterNotifications(request, cluster)
        case .newest: return try self.clusterLatest(request, cluster)
        case .wait: return try self.clusterWait(request, cluster)
        case .metrics: return try self.clusterMetrics(request, cluster)
        case .array: return self.clusterArray(request, cluster, try route.handle(self, request))
        case .events:
            return request.eventLoop.makeSucceededFuture(
                .events(try self.journalFilter(request.query), peers: request.peerQuery))
        }
    }

    /// The owning shard's answer, as it gave it; 503 naming the shard when it cannot be reached.
    private func forward(_ request: Request, to owner: Int, _ cluster: Cluster) -> EventLoopFuture<Reply> {
        cluster.forward(
            request.method, request.path, query: request.peerQuery, body: request.body, to: owner, on: request.eventLoop
        ).flatMapThrowing { reply in
            guard let answer = reply.answer else {
                throw AdminError(
                    .unavailable, "shard \(owner) (\(reply.address)), which owns this, did not answer: \(reply.error ?? "")")
            }
            return .response(Response(status: answer.status, body: answer.body))
        }
    }

    /// Done here and on every other shard (a reset, a clock move, a deletion): this shard's
    /// answer, with `shards` saying which others did it too.
    private func everywhere(
        _ request: Request, _ route: AdminRoute, _ cluster: Cluster
    ) throws(AdminError) -> EventLoopFuture<Reply> {
        // This shard's refusal (a bad document, nothing by that name) is the answer, as it is.
        let local = try route.handle(self, request)
        let others = cluster.ask(
            request.method, request.path, query: request.peerQuery, body: request.body, on: request.eventLoop)
        return local.and(others).map { reply, replies in
            guard case .response(let response) = reply, response.status / 100 == 2,
                case .object(var members)? = JSONValue.parse(response.body)
            else { return reply }
            let done = replies.filter { ($0.answer?.status ?? 0) / 100 == 2 }
            var shards = JSONWriter()
            Cluster.writeShards(
                [cluster.shard.index] + done.map(\.shard), replies.filter { ($0.answer?.status ?? 0) / 100 != 2 }, into: &shards)
            members["shards"] = JSONValue.parse(shards.bytes)
            var writer = JSONWriter()
            writer.value(.object(members))
            return .response(Response(status: response.status, body: writer.bytes))
        }
    }

    /// `GET /api/v1/notifications` over every shard: the newest `limit` of all of them.
    private func clusterNotifications(_ request: Request, _ cluster: Cluster) throws(AdminError) -> EventLoopFuture<Reply> {
        guard request.query["cursor"] == nil else {
            throw AdminError(
                .badRequest,
                "cursor pages one shard's journal: add scope=local and ask each shard, or raise limit (up to \(NotificationRoutes.maximumPage)): the merged list holds the newest of every shard"
            )
        }
        let limit = try Self.read(
            request.query.integer("limit", fallback: NotificationRoutes.defaultPage, maximum: NotificationRoutes.maximumPage))
        let local = try self.notificationRoutes.notifications(request.query)
        return cluster.ask("GET", request.path, query: request.peerQuery, on: request.eventLoop).map { replies in
            let (merged, unanswered) = Self.pages(local: local.body, replies, cluster)
            var writer = JSONWriter()
            writer.object { members in
                members.member("total") { $0.number(merged.total) }
                members.member("items") { $0.array(merged.items.prefix(limit)) { $0.value($1) } }
                members.member("next") { $0.raw("null") }
                members.member("shards") { Cluster.writeShards(merged.answered, unanswered, into: &$0) }
            }
            return .response(Response(status: 200, body: writer.bytes))
        }
    }

    /// This shard's page and the others' answers, merged; the shards that gave none, and why.
    static func pages(local: [UInt8], _ replies: [Cluster.Reply], _ cluster: Cluster) -> (ClusterMerge.Page, [Cluster.Reply]) {
        let pages =
            [(cluster.shard.index, local)]
            + replies.compactMap { reply in reply.answer?.status == 200 ? (reply.shard, reply.answer?.body ?? []) : nil }
        let merged = ClusterMerge.pages(pages)
        let unanswered = replies.filter { !merged.answered.contains($0.shard) }.map { reply in
            var reply = reply
            if reply.error == nil, reply.answer?.status == 200 { reply.error = "answered a page that is not the journal's JSON" }
            return reply
        }
        return (merged, unanswered)
    }

    /// `GET /api/v1/notifications/latest` over every shard: the newest of their newest.
    private func clusterLatest(_ request: Request, _ cluster: Cluster) throws(AdminError) -> EventLoopFuture<Reply> {
        let local = try self.notificationRoutes.latest(request.query)
        return cluster.ask("GET", request.path, query: request.peerQuery, on: request.eventLoop).flatMapThrowing { replies in
            let found =
                ([local.status == 200 ? local.body : nil] + replies.map { $0.answer?.status == 200 ? $0.answer?.body : nil })
                .compactMap { $0.flatMap(JSONValue.parse) }
            guard let newest = ClusterMerge.newestFirst(found).first else {
                throw AdminError(.notFound, "no matching notification in the journal of any shard that answered")
            }
            var writer = JSONWriter()
            writer.value(newest)
            return .response(Response(status: 200, body: writer.bytes))
        }
    }

    /// A JSON array every shard answers (devices, feedback): all of them, in shard order; the
    /// header `apns-emulator-shards` says which shards it holds (`answered=0,2; unanswered=1`).
    private func clusterArray(
        _ request: Request, _ cluster: Cluster, _ localReply: EventLoopFuture<Reply>
    ) -> EventLoopFuture<Reply> {
        localReply.flatMap { reply in
            guard case .response(let local) = reply, local.status == 200 else {
                return request.eventLoop.makeSucceededFuture(reply)
            }
            return self.mergeArrays(request, cluster, local)
        }
    }

    private func mergeArrays(_ request: Request, _ cluster: Cluster, _ local: Response) -> EventLoopFuture<Reply> {
        cluster.ask("GET", request.path, query: request.peerQuery, on: request.eventLoop).map { replies in
            var items: [(Int, [JSONValue])] = []
            if case .array(let own)? = JSONValue.parse(local.body) { items.append((cluster.shard.index, own)) }
            var unanswered: [Int] = []
            for reply in replies {
                guard let answer = reply.answer, answer.status == 200, case .array(let theirs)? = JSONValue.parse(answer.body)
                else {
                    unanswered.append(reply.shard)
                    continue
                }
                items.append((reply.shard, theirs))
            }
            items.sort { $0.0 < $1.0 }
            var writer = JSONWriter()
            writer.value(.array(items.flatMap(\.1)))
            let answered = items.map { String($0.0) }.joined(separator: ",")
            return .response(
                Response(
                    status: 200, body: writer.bytes,
                    shards: "answered=\(answered); unanswered=\(unanswered.map(String.init).joined(separator: ","))"))
        }
    }

    /// The first shard that has what the request names answers it; 404 when none does.
    private func firstFound(_ request: Request, _ route: AdminRoute, _ cluster: Cluster) -> EventLoopFuture<Reply> {
        cluster.ask(request.method, request.path, query: request.peerQuery, body: request.body, on: request.eventLoop).flatMap {
            replies in
            if let found = replies.first(where: { ($0.answer?.status ?? 404) != 404 })?.answer {
                return request.now(Response(status: found.status, body: found.body))
            }
            do throws(AdminError) {
                return try route.handle(self, request)
            } catch {
                return request.eventLoop.makeFailedFuture(error)
            }
        }
    }
}

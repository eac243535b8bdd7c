import APNsCore
import APNsInspection
import Foundation
import NIOCore

/// The admin API's routes, as a function of method, path and body; no sockets here.
struct AdminRouter: Sendable {
    let relay: Relay
    let inspection: Inspection
    let readiness: ReadinessGate
    let clock: EmulatorClock
    /// The development CA's certificate (`GET /ca.pem`), for clients that cannot read the
    /// emulator's files: a container's, another machine's.
    var caPath: String?
    /// The provider API's intake and authentication rules, for `POST /api/v1/push`.
    var provider: ProviderContext?

    struct Response: Equatable {
        var status: Int
        var body: [UInt8]
        var contentType = "application/json"
        /// The methods a path takes, with a 405 (RFC 9110, section 15.5.6).
        var allow: String?
        /// A merged answer that is a JSON array: which shards it holds (`apns-emulator-shards`).
        var shards: String?
    }

    /// What the connection does with a request: answer it, or stream events until the client leaves.
    enum Reply {
        case response(Response)
        /// `peers`: the query to ask the cluster's other shards for their events with; nil for this shard's alone.
        case events(JournalFilter, peers: String?)
    }

    /// One request, as the routes see it.
    struct Request {
        var method: String
        var path: String
        var segments: [String]
        var query: QueryParameters
        var body: [UInt8]
        var eventLoop: any EventLoop

        /// The query to ask other shards with: as sent, but for `scope` (they are asked for their own).
        var peerQuery: String { self.query.encoded(setting: ["scope": nil]) }

        func now(_ response: Response) -> EventLoopFuture<Reply> { self.eventLoop.makeSucceededFuture(.response(response)) }
        func later(_ response: EventLoopFuture<Response>) -> EventLoopFuture<Reply> { response.map { .response($0) } }

        /// Answers with `answer` when the method is `allowed`, else 405.
        func only(_ allowed: String, _ answer: () throws(InspectionError) -> EventLoopFuture<Reply>) throws(InspectionError) -> EventLoopFuture<Reply> {
            self.method == allowed ? try answer() : self.now(AdminRouter.notAllowed(allowed))
        }
    }

    /// Answers one request on `eventLoop` (reads run there: LMDB reads are memory reads; writes
    /// go through the relay's group commit).
    func respond(method: String, uri: String, body: [UInt8], on eventLoop: any EventLoop) -> EventLoopFuture<Reply> {
        let path = uri.split(separator: "?", maxSplits: 1).first.map(String.init) ?? uri
        let segments = path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        let request = Request(method: method, path: path, segments: segments, query: QueryParameters(uri: uri), body: body, eventLoop: eventLoop)
        do throws(InspectionError) {
            // The web inbox's page and assets are not the API: a browser may add what it likes.
            // A method the path does not take is answered 405 by the route, whatever the query.
            let isPage = segments.isEmpty || segments[0] == "inbox"
            if !isPage, let allowed = Self.parameters(segments, method: method), let unknown = request.query.unknown(allowed: allowed.union(["scope"])) {
                let takes = allowed.isEmpty ? "this endpoint takes no query parameters" : "this endpoint takes " + allowed.sorted().joined(separator: ", ")
                throw InspectionError(.badParameter, field: unknown, "unknown query parameter \(unknown): \(takes)")
            }
            if let empty = request.query.emptyValue(except: ["devices"]) {
                throw InspectionError(.badParameter, field: empty, "\(empty) is empty; leave it out to match anything")
            }
            guard ["local", "cluster", nil].contains(request.query["scope"]) else {
                throw InspectionError(.badParameter, field: "scope", "scope is local (this shard alone) or cluster (every shard, the default with --cluster-peers)")
            }
            if let cluster = self.relay.cluster, request.query["scope"] != "local", let merged = try self.routeCluster(request, cluster) {
                return merged
            }
            return try self.routeHere(request)
        } catch {
            return eventLoop.makeSucceededFuture(.response(Self.error(400, error.message)))
        }
    }

    /// The query parameters a path takes: a misspelt one (`?tokn=`) is an error, not "everything".
    /// nil: a method the path does not take (its 405 comes first).
    static func parameters(_ segments: [String], method: String) -> Set<String>? {
        let filter: Set<String> = ["token", "topic", "pushType", "status", "interface", "since"]
        guard segments.count >= 3, segments[0] == "api", segments[1] == "v1" else { return [] }
        switch (segments[2], segments.count, method) {
        case ("notifications", 3, "GET"): return filter.union(["limit", "cursor"])
        case ("notifications", 3, "DELETE"): return filter
        case ("notifications", 3, _): return nil
        case ("notifications", 4, "GET") where segments[3] == "latest": return filter
        case ("notifications", 4, "GET") where segments[3] == "wait": return filter.union(["after", "timeout"])
        case ("notifications", 4, _) where segments[3] == "latest" || segments[3] == "wait": return nil
        case ("events", 3, "GET"): return filter
        case ("reset", 3, "POST"): return ["devices"]
        case ("events", 3, _), ("reset", 3, _): return nil
        case ("channels", 3, "GET"): return ["bundleId"]
        case ("channels", 3, _): return nil
        default: return []
        }
    }

    /// Answers `request` from this emulator alone.
    func routeHere(_ request: Request) throws(InspectionError) -> EventLoopFuture<Reply> {
        let segments = request.segments
        if segments.isEmpty || segments[0] == "inbox" {
            return try self.routeInbox(request)
        }
        if segments.count == 1, ["healthz", "readyz", "metrics", "openapi.json", "ca.pem"].contains(segments[0]) {
            return try self.routeService(request)
        }
        if segments.count >= 3, segments[0] == "api", segments[1] == "v1" {
            switch segments[2] {
            case "notifications" where segments.count == 5 && segments[4] == "respond": return try self.routePhone(request)
            case "devices" where segments.count >= 5 && ["app", "delivered", "pending", "location"].contains(segments[4]): return try self.routePhone(request)
            case "notifications", "events", "reset": return try self.routeNotifications(request)
            case "faults": return try self.routeFaults(request)
            case "clock" where segments.count == 3: return try self.routeClock(request)
            case "push" where segments.count == 3: return try request.only("POST") { request.later(self.push(body: request.body, on: request.eventLoop)) }
            case "devices" where segments.count == 5 && ["activities", "rotate-push-to-start-token"].contains(segments[4]): return try self.routeActivities(request)
            case "activities" where (4...5).contains(segments.count): return try self.routeActivities(request)
            case "devices", "feedback": return try self.routeDevices(request)
            case "channels": return try self.routeChannels(request)
            case "cluster" where segments.count == 4 && segments[3] == "channels":
                switch request.method {
                case "GET": return request.now(self.ownedChannels())
                case "POST": return request.later(self.adoptChannel(request.body, on: request.eventLoop))
                default: return request.now(Self.notAllowed("GET", "POST"))
                }
            case "apps" where segments.count == 5 && segments[4] == "broadcast": return try self.routeChannels(request)
            default: break
            }
        }
        return request.now(Self.error(404, "no such endpoint: \(request.path)"))
    }

    /// `/healthz`, `/readyz`, `/metrics`, `/openapi.json`, `/ca.pem`.
    private func routeService(_ request: Request) throws(InspectionError) -> EventLoopFuture<Reply> {
        try request.only("GET") { () throws(InspectionError) in
            switch request.segments[0] {
            case "healthz":
                return request.now(Response(status: 200, body: Array(#"{"status":"ok"}"#.utf8)))
            case "readyz":
                return request.now(
                    self.readiness.isReady
                        ? Response(status: 200, body: Array(#"{"status":"ready"}"#.utf8))
                        : Self.error(503, "starting: not every listener is bound yet")
                )
            case "metrics":
                return request.now(try self.metrics())
            case "ca.pem":
                guard let path = self.caPath, let pem = FileManager.default.contents(atPath: path) else {
                    return request.now(Self.error(404, "no development CA here: this emulator serves a certificate of its own (--tls-cert), whose issuer its clients already trust"))
                }
                return request.now(Response(status: 200, body: Array(pem), contentType: "application/x-pem-file"))
            default:
                return request.now(Response(status: 200, body: OpenAPIDocument.json))
            }
        }
    }

    /// `GET /`: the web inbox; `GET /inbox/<asset>`: its style, script and icon.
    private func routeInbox(_ request: Request) throws(InspectionError) -> EventLoopFuture<Reply> {
        try request.only("GET") { () throws(InspectionError) in
            if request.segments.isEmpty {
                let port = self.readiness.address(.http2)?.port ?? 2197
                return request.now(Response(status: 200, body: InboxAssets.page(http2Port: port), contentType: "text/html; charset=utf-8"))
            }
            guard request.segments.count == 2, let asset = InboxAssets.asset(request.segments[1]) else {
                return request.now(Self.error(404, "no such endpoint: \(request.path)"))
            }
            return request.now(Response(status: 200, body: asset.body, contentType: asset.contentType))
        }
    }

    /// `GET /metrics`: Prometheus text, with queue depth and connections read now.
    func metrics() throws(InspectionError) -> Response {
        let depth: Int
        do {
            depth = try self.relay.queuedCount()
        } catch {
            return Self.error(500, "could not count the queued notifications: \(error)")
        }
        let (subscriptions, subscribers) = self.relay.phone.subscriberTotals()
        let channels = self.relay.channels.read { $0.channels.values.lazy.filter { !$0.isDeleted }.count }
        self.inspection.metrics.broadcast.record(subscriptions: subscriptions, uniqueSubscribers: subscribers, channels: channels)
        let body = self.inspection.metrics.render(queueDepth: depth, devicesConnected: self.relay.connectedCount)
        return Response(status: 200, body: body, contentType: "text/plain; version=0.0.4; charset=utf-8")
    }

    static let badToken = error(400, "a device token is even-length hex of 32 to 100 bytes")

    /// 405, naming the methods the path takes in words and in `Allow`.
    static func notAllowed(_ methods: String...) -> Response {
        let words = methods.count > 1 ? methods.dropLast().joined(separator: ", ") + " or " + (methods.last ?? "") : methods.joined()
        return Response(status: 405, body: JSONWriter.error("use " + words), allow: methods.joined(separator: ", "))
    }

    static func error(_ status: Int, _ message: String) -> Response {
        Response(status: status, body: JSONWriter.error(message))
    }
}

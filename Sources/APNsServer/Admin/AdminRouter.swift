import APNsCore
import APNsInspection
import NIOCore

/// The admin API's routes, as a function of method, path and body; no sockets here.
struct AdminRouter: Sendable {
    /// The store and delivery: registrations, queues, resets, the clock's sweep.
    let relay: Relay
    /// The store's reads.
    let reader: StoreReader
    /// What the phone routes use: the apps, their Notification Centers and activities.
    let phone: Phone
    /// Broadcast channels (the channel routes and the metrics).
    let channels: BroadcastChannels
    /// Tells a connected device what changed on its phone.
    let hub: DeliveryHub
    /// Devices' power states.
    let power: DevicePowerBook
    /// The other shards, whose answers the cluster's routes merge.
    let cluster: Cluster?
    let inspection: Inspection
    let readiness: ReadinessGate
    let clock: EmulatorClock
    /// The development CA's certificate (`GET /ca.pem`), for clients that cannot read the
    /// emulator's files: a container's, another machine's.
    var caPath: String?
    /// Whether the admin API asks for its token: the inbox then offers to log out.
    var asksForToken = false
    /// The provider API's intake and authentication rules, for `POST /api/v1/push`.
    var provider: ProviderContext?
    /// The world as a seed document, for `POST /api/v1/export`.
    var world: WorldExport?

    init(
        relay: Relay, reader: StoreReader, phone: Phone, channels: BroadcastChannels, hub: DeliveryHub, power: DevicePowerBook,
        cluster: Cluster?,
        inspection: Inspection, readiness: ReadinessGate, clock: EmulatorClock, caPath: String? = nil,
        provider: ProviderContext? = nil, world: WorldExport? = nil
    ) {
        self.world = world
        self.reader = reader
        (self.relay, self.phone, self.channels, self.hub, self.power, self.cluster) = (
            relay, phone, channels, hub, power, cluster
        )
        (self.inspection, self.readiness, self.clock, self.caPath, self.provider) = (
            inspection, readiness, clock, caPath, provider
        )
    }

    struct Response: Equatable {
        var status: Int
        var body: [UInt8]
        var contentType = "application/json"
        /// The methods a path takes, with a 405 (RFC 9110, section 15.5.6).
        var allow: String?
        /// A merged answer that is a JSON array: which shards it holds (`apns-emulator-shards`).
        var shards: String?
        /// Further headers, names in lower case (`location`, `set-cookie`, CORS).
        var headers: [String: String] = [:]
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
        var query: QueryParameters
        var body: [UInt8]
        var eventLoop: any EventLoop
        /// The path's parameters, by the names the route's pattern gives them.
        var parameters: [String: String] = [:]

        /// The query to ask other shards with: as sent, but for `scope` (they are asked for their own).
        var peerQuery: String { self.query.encoded(setting: ["scope": nil]) }

        func now(_ response: Response) -> EventLoopFuture<Reply> { self.eventLoop.makeSucceededFuture(.response(response)) }
        func later(_ response: EventLoopFuture<Response>) -> EventLoopFuture<Reply> { response.map { .response($0) } }

        /// A path parameter the route's pattern names (`{token}`, `{id}`).
        subscript(path name: String) -> String { self.parameters[name] ?? "" }

        /// The path's `{token}`; 400 when it is not a device token.
        func deviceToken() throws(AdminError) -> DeviceToken {
            guard let token = DeviceToken(hex: self[path: "token"]) else { throw AdminRouter.badToken }
            return token
        }
    }

    /// Answers one request on `eventLoop` (reads run there: LMDB reads are memory reads; writes
    /// go through the relay's group commit).
    func respond(method: String, uri: String, body: [UInt8], on eventLoop: any EventLoop) -> EventLoopFuture<Reply> {
        let path = uri.split(separator: "?", maxSplits: 1).first.map(String.init) ?? uri
        let segments = path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        var request = Request(method: method, path: path, query: QueryParameters(uri: uri), body: body, eventLoop: eventLoop)
        let candidates = AdminRoute.candidates(for: segments, in: AdminRoute.table)
        guard !candidates.isEmpty else { return request.now(AdminError(.notFound, "no such endpoint: \(path)").response) }
        // A method the path does not take is answered 405, whatever the query.
        guard let (route, parameters) = candidates.first(where: { $0.route.method == method }) else {
            return request.now(Self.notAllowed(candidates.map(\.route.method)))
        }
        request.parameters = parameters
        do throws(AdminError) {
            // The web inbox's page and assets are not the API: a browser may add what it likes.
            if !route.isPage { try Self.check(request.query, takes: route.query) }
            if let cluster = self.cluster, request.query["scope"] != "local",
                let merged = try self.routeCluster(request, route, cluster)
            {
                return merged
            }
            return try route.handle(self, request).flatMapErrorThrowing { error in
                // A route's future failing with an AdminError is answered as one thrown at once.
                guard let error = error as? AdminError else { throw error }
                return .response(error.response)
            }
        } catch {
            return request.now(error.response)
        }
    }

    /// A misspelt parameter (`?tokn=`) is an error, not "everything"; so is an empty one.
    static func check(_ query: QueryParameters, takes allowed: Set<String>) throws(AdminError) {
        if let unknown = query.unknown(allowed: allowed.union(["scope"])) {
            let takes =
                allowed.isEmpty
                ? "this endpoint takes no query parameters" : "this endpoint takes " + allowed.sorted().joined(separator: ", ")
            throw AdminError(.badRequest, "unknown query parameter \(unknown): \(takes)")
        }
        if let empty = query.emptyValue(except: ["devices"]) {
            throw AdminError(.badRequest, "\(empty) is empty; leave it out to match anything")
        }
        guard ["local", "cluster", nil].contains(query["scope"]) else {
            throw AdminError(
                .badRequest, "scope is local (this shard alone) or cluster (every shard, the default with --cluster-peers)")
        }
    }

    static let badToken = AdminError(.badRequest, "a device token is even-length hex of 32 to 100 bytes")

    /// 405, naming the methods the path takes in words and in `Allow`.
    static func notAllowed(_ methods: [String]) -> Response {
        let words =
            methods.count > 1 ? methods.dropLast().joined(separator: ", ") + " or " + (methods.last ?? "") : methods.joined()
        return Response(
            status: AdminError.Reason.notAllowed.status, body: JSONWriter.error("use " + words),
            allow: methods.joined(separator: ", "))
    }
}

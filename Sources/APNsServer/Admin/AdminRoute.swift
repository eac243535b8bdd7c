import APNsCore
import APNsInspection
import NIOCore

/// One admin route: its method, its path pattern, the query parameters it takes, who answers it
/// in a cluster, and its handler. `AdminRoute.table` holds every route; `openapi.json` describes
/// the same set (AdminRouteTableTests checks the two against each other).
struct AdminRoute: Sendable {
    typealias Handler = @Sendable (AdminRouter, AdminRouter.Request) throws(AdminError) -> EventLoopFuture<AdminRouter.Reply>

    /// One segment of a pattern: `notifications`, `{token}`, `{id}.apns`, or `{id*}` (the rest of
    /// the path, slashes and all: a channel id is base64 and may hold `/`).
    enum Segment: Equatable, Sendable {
        case literal(String)
        case parameter(String, suffix: String)
        case rest(String)

        init(_ text: Substring) {
            guard text.hasPrefix("{"), let close = text.firstIndex(of: "}") else {
                self = .literal(String(text))
                return
            }
            let name = text[text.index(after: text.startIndex)..<close]
            if name.hasSuffix("*") {
                self = .rest(String(name.dropLast()))
            } else {
                self = .parameter(String(name), suffix: String(text[text.index(after: close)...]))
            }
        }

        /// How specific the segment is: a literal beats a suffixed parameter beats a parameter.
        var weight: Int {
            switch self {
            case .literal: 3
            case .parameter(_, let suffix): suffix.isEmpty ? 1 : 2
            case .rest: 0
            }
        }
    }

    /// Who answers the route when the emulator is a shard of a cluster (`--cluster-peers`).
    enum ClusterPolicy: Sendable, Equatable {
        /// This shard alone (what every shard holds alike, or what concerns this one).
        case local
        /// Done here and on every other shard; the answer says which did it.
        case everyShard
        /// The shard owning the path's `{token}`.
        case tokenOwner
        /// The shard that made the path's notification `{id}` (its unique id's last byte).
        case uniqueIDOwner
        /// The shard a fault rule's id names (`s<K>-fault-<n>`).
        case faultOwner
        /// The shard holding the Live Activity `{id}` (ids do not name a shard: asked in turn).
        case activityHolder
        /// The shard owning the `token` of the body (a push from the admin API).
        case bodyTokenOwner
        /// A fault rule: on the shard of the token its match names, else on every shard.
        case faultRule
        /// Every shard's answers merged into one.
        case merged(Merge)
    }

    /// How the shards' answers are merged.
    enum Merge: Sendable, Equatable {
        case journalPage, newest, wait, array, metrics, events
    }

    let method: String
    let pattern: String
    let segments: [Segment]
    /// The query parameters it takes besides `scope` (which every route but the pages takes).
    let query: Set<String>
    let cluster: ClusterPolicy
    /// The web inbox's page and assets: a browser may add any query it likes.
    let isPage: Bool
    let handle: Handler

    init(
        _ method: String, _ pattern: String, query: Set<String> = [], cluster: ClusterPolicy = .local, isPage: Bool = false,
        _ handle: @escaping Handler
    ) {
        self.method = method
        self.pattern = pattern
        self.segments = pattern.split(separator: "/", omittingEmptySubsequences: true).map(Segment.init)
        self.query = query
        self.cluster = cluster
        self.isPage = isPage
        self.handle = handle
    }

    /// A route of a concern whose handlers are a value of their own (`WebAppRoutes`, ...): the
    /// router builds it (`concern`) from only what the concern uses, so a handler reaches nothing else.
    init<Concern>(
        _ method: String, _ pattern: String, query: Set<String> = [], cluster: ClusterPolicy = .local, isPage: Bool = false,
        on concern: @escaping @Sendable (AdminRouter) -> Concern,
        _ handle: @escaping @Sendable (Concern, AdminRouter.Request) throws(AdminError) -> EventLoopFuture<AdminRouter.Reply>
    ) {
        self.init(method, pattern, query: query, cluster: cluster, isPage: isPage) { router, request throws(AdminError) in
            try handle(concern(router), request)
        }
    }

    /// The path's parameters when `path` (split at `/`) matches the pattern; nil when not.
    func match(_ path: [String]) -> [String: String]? {
        var parameters: [String: String] = [:]
        for (index, segment) in self.segments.enumerated() {
            switch segment {
            case .rest(let name):
                guard index < path.count else { return nil }
                parameters[name] = path[index...].joined(separator: "/")
                return parameters
            case .literal(let text):
                guard index < path.count, path[index] == text else { return nil }
            case .parameter(let name, let suffix):
                guard index < path.count, path[index].hasSuffix(suffix), path[index].count > suffix.count else { return nil }
                parameters[name] = String(path[index].dropLast(suffix.count))
            }
        }
        return path.count == self.segments.count ? parameters : nil
    }

    var weight: [Int] { self.segments.map(\.weight) }

    /// The routes whose pattern matches `path` most specifically (one pattern, one or more
    /// methods), with the path's parameters; empty when none matches.
    static func candidates(for path: [String], in table: [AdminRoute]) -> [(route: AdminRoute, parameters: [String: String])] {
        let matched = table.compactMap { route in route.match(path).map { (route: route, parameters: $0) } }
        guard let best = matched.map(\.route.weight).max(by: { $0.lexicographicallyPrecedes($1) }) else { return [] }
        return matched.filter { $0.route.weight == best }
    }
}

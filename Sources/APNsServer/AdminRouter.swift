import APNsCore
import APNsStore
import Foundation
import NIOCore

/// The admin API's routes, as a function of method, path and body; no sockets here.
struct AdminRouter: Sendable {
    let relay: Relay
    let inspection: Inspection
    let readiness: ReadinessGate

    var store: NotificationStore { self.relay.store }

    struct Response: Equatable {
        var status: Int
        var body: [UInt8]
        var contentType = "application/json"
    }

    /// What the connection does with a request: answer it, or stream events until the client leaves.
    enum Reply {
        case response(Response)
        case events(JournalFilter)
    }

    /// Answers one request on `eventLoop` (reads run there: LMDB reads are memory reads; writes
    /// go through the relay's group commit).
    func respond(method: String, uri: String, body: [UInt8], on eventLoop: any EventLoop) -> EventLoopFuture<Reply> {
        let path = uri.split(separator: "?", maxSplits: 1).first.map(String.init) ?? uri
        let query = QueryParameters(uri: uri)
        do {
            return try self.route(method: method, path: path, query: query, body: body, on: eventLoop)
        } catch {
            return eventLoop.makeSucceededFuture(.response(Self.error(400, error.message)))
        }
    }

    private func route(
        method: String,
        path: String,
        query: QueryParameters,
        body: [UInt8],
        on eventLoop: any EventLoop
    ) throws(ServerError) -> EventLoopFuture<Reply> {
        let segments = path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        func now(_ response: Response) -> EventLoopFuture<Reply> { eventLoop.makeSucceededFuture(.response(response)) }
        func later(_ response: EventLoopFuture<Response>) -> EventLoopFuture<Reply> { response.map { .response($0) } }
        func only(_ allowed: String, _ answer: () throws(ServerError) -> EventLoopFuture<Reply>) throws(ServerError) -> EventLoopFuture<Reply> {
            method == allowed ? try answer() : now(Self.error(405, "use \(allowed)"))
        }
        switch segments {
        case ["healthz"]:
            return try only("GET") { now(Response(status: 200, body: Array(#"{"status":"ok"}"#.utf8))) }
        case ["readyz"]:
            return try only("GET") {
                self.readiness.isReady
                    ? now(Response(status: 200, body: Array(#"{"status":"ready"}"#.utf8)))
                    : now(Self.error(503, "starting: not every listener is bound yet"))
            }
        case ["metrics"]:
            return try only("GET") { now(self.metrics()) }
        case ["openapi.json"]:
            return try only("GET") { now(Response(status: 200, body: Array(OpenAPIDocument.json.utf8))) }
        case ["api", "v1", "notifications"]:
            switch method {
            case "GET": return now(try self.notifications(query))
            case "DELETE": return later(try self.deleteNotifications(query, on: eventLoop))
            default: return now(Self.error(405, "use GET or DELETE"))
            }
        case ["api", "v1", "notifications", "latest"]:
            return try only("GET") { () throws(ServerError) in now(try self.latest(query)) }
        case ["api", "v1", "notifications", "wait"]:
            return try only("GET") { () throws(ServerError) in later(try self.wait(query, on: eventLoop)) }
        case let s where s.count == 4 && s[0...2] == ["api", "v1", "notifications"]:
            return try only("GET") { now(self.notification(id: s[3])) }
        case ["api", "v1", "events"]:
            return try only("GET") { () throws(ServerError) in eventLoop.makeSucceededFuture(.events(try JournalFilter.parse(query))) }
        case ["api", "v1", "reset"]:
            return try only("POST") { later(self.reset(query, body: body, on: eventLoop)) }
        case ["api", "v1", "faults"]:
            return now(self.faults(method: method, id: nil, body: body))
        case let s where s.count == 4 && s[0...2] == ["api", "v1", "faults"]:
            return now(self.faults(method: method, id: s[3], body: body))
        case ["api", "v1", "devices"]:
            switch method {
            case "GET": return now(self.devices())
            case "POST": return later(self.register(body: body, on: eventLoop))
            default: return now(Self.error(405, "use GET or POST"))
            }
        case ["api", "v1", "feedback"]:
            return try only("GET") { now(self.feedback()) }
        case let s where s.count == 5 && s[0...2] == ["api", "v1", "devices"] && s[4] == "notifications":
            return try only("GET") {
                guard let token = DeviceToken(hex: s[3]) else { return now(Self.badToken) }
                return now(self.queued(for: token))
            }
        case let s where s.count == 5 && s[0...2] == ["api", "v1", "devices"] && s[4] == "unregister":
            return try only("POST") {
                guard let token = DeviceToken(hex: s[3]) else { return now(Self.badToken) }
                return later(self.unregister(token, on: eventLoop))
            }
        default:
            return now(Self.error(404, "no such endpoint: \(path)"))
        }
    }

    /// `GET /metrics`: Prometheus text, with queue depth and connections read now.
    private func metrics() -> Response {
        let depth = (try? self.store.queuedCount()) ?? 0
        let body = self.inspection.metrics.render(queueDepth: depth, devicesConnected: self.relay.hub.connectedCount)
        return Response(status: 200, body: body, contentType: "text/plain; version=0.0.4; charset=utf-8")
    }

    static let badToken = error(400, "a device token is even-length hex of 32 to 100 bytes")

    static func error(_ status: Int, _ message: String) -> Response {
        var writer = JSONWriter()
        writer.object { members in members.member("error") { $0.string(message) } }
        return Response(status: status, body: writer.bytes)
    }
}

import APNsCore
import APNsStore

/// The admin API's routes, as a plain function of method, path and store; no sockets here.
struct AdminRouter: Sendable {
    let store: NotificationStore

    struct Response: Equatable {
        var status: Int
        var body: [UInt8]
        var contentType = "application/json"
    }

    /// Answers one request; runs on the caller's event loop (LMDB reads are memory reads).
    func respond(method: String, uri: String) -> Response {
        let path = uri.split(separator: "?", maxSplits: 1).first.map(String.init) ?? uri
        let segments = path.split(separator: "/", omittingEmptySubsequences: true)
        switch segments.count {
        case 1 where segments[0] == "healthz":
            guard method == "GET" else { return Self.error(405, "use GET") }
            return Response(status: 200, body: Array(#"{"status":"ok"}"#.utf8))
        case 5 where segments[0] == "api" && segments[1] == "v1" && segments[2] == "devices" && segments[4] == "notifications":
            guard method == "GET" else { return Self.error(405, "use GET") }
            guard let token = DeviceToken(hex: segments[3]) else {
                return Self.error(400, "a device token is even-length hex of 32 to 100 bytes")
            }
            return self.queued(for: token)
        default:
            return Self.error(404, "no such endpoint: \(path)")
        }
    }

    private func queued(for token: DeviceToken) -> Response {
        do {
            let queued = try self.store.queued(for: token)
            var writer = JSONWriter()
            writer.array(queued) { writer, item in Self.write(item.notification, into: &writer) }
            return Response(status: 200, body: writer.bytes)
        } catch {
            return Self.error(500, "\(error)")
        }
    }

    /// The admin API's shape of one notification.
    static func write(_ notification: Notification, into writer: inout JSONWriter) {
        writer.object { members in
            members.member("apnsId") { $0.string(notification.apnsID) }
            members.member("uniqueId") { $0.string(notification.uniqueID) }
            members.member("token") { $0.string(notification.token.hex) }
            members.member("topic") { $0.optionalString(notification.topic) }
            members.member("pushType") { $0.string(notification.pushType.rawValue) }
            members.member("priority") { $0.number(notification.priority.rawValue) }
            members.member("expiration") { writer in
                if let expiration = notification.expiration { writer.number(expiration) } else { writer.raw("null") }
            }
            members.member("collapseId") { $0.optionalString(notification.collapseID) }
            members.member("payload") { $0.raw(notification.payload) }
            members.member("receivedAt") { $0.string(Timestamp.rfc3339(millis: notification.receivedAt)) }
            members.member("source") { $0.string(notification.source.rawValue) }
        }
    }

    static func error(_ status: Int, _ message: String) -> Response {
        var writer = JSONWriter()
        writer.object { members in members.member("error") { $0.string(message) } }
        return Response(status: status, body: writer.bytes)
    }
}

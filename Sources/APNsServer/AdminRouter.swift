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
            writer.array(queued) { writer, item in NotificationJSON.write(item.notification, into: &writer) }
            return Response(status: 200, body: writer.bytes)
        } catch {
            return Self.error(500, "\(error)")
        }
    }

    static func error(_ status: Int, _ message: String) -> Response {
        var writer = JSONWriter()
        writer.object { members in members.member("error") { $0.string(message) } }
        return Response(status: status, body: writer.bytes)
    }
}

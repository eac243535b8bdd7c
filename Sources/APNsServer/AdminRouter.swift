import APNsCore
import APNsStore
import Foundation
import NIOCore

/// The admin API's routes, as a function of method, path and body; no sockets here.
struct AdminRouter: Sendable {
    let relay: Relay

    var store: NotificationStore { self.relay.store }

    struct Response: Equatable {
        var status: Int
        var body: [UInt8]
        var contentType = "application/json"
    }

    /// Answers one request on `eventLoop` (reads run there: LMDB reads are memory reads; writes
    /// go through the relay's group commit).
    func respond(method: String, uri: String, body: [UInt8], on eventLoop: any EventLoop) -> EventLoopFuture<Response> {
        let path = uri.split(separator: "?", maxSplits: 1).first.map(String.init) ?? uri
        let segments = path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        func only(_ allowed: String, _ answer: () -> EventLoopFuture<Response>) -> EventLoopFuture<Response> {
            method == allowed ? answer() : eventLoop.makeSucceededFuture(Self.error(405, "use \(allowed)"))
        }
        switch segments {
        case ["healthz"]:
            return only("GET") { eventLoop.makeSucceededFuture(Response(status: 200, body: Array(#"{"status":"ok"}"#.utf8))) }
        case ["api", "v1", "devices"]:
            switch method {
            case "GET": return eventLoop.makeSucceededFuture(self.devices())
            case "POST": return self.register(body: body, on: eventLoop)
            default: return eventLoop.makeSucceededFuture(Self.error(405, "use GET or POST"))
            }
        case ["api", "v1", "feedback"]:
            return only("GET") { eventLoop.makeSucceededFuture(self.feedback()) }
        case let s where s.count == 5 && s[0...2] == ["api", "v1", "devices"] && s[4] == "notifications":
            return only("GET") {
                guard let token = DeviceToken(hex: s[3]) else { return eventLoop.makeSucceededFuture(Self.badToken) }
                return eventLoop.makeSucceededFuture(self.queued(for: token))
            }
        case let s where s.count == 5 && s[0...2] == ["api", "v1", "devices"] && s[4] == "unregister":
            return only("POST") {
                guard let token = DeviceToken(hex: s[3]) else { return eventLoop.makeSucceededFuture(Self.badToken) }
                return self.unregister(token, on: eventLoop)
            }
        default:
            return eventLoop.makeSucceededFuture(Self.error(404, "no such endpoint: \(path)"))
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

    /// Every token the emulator knows (registered, unregistered, or with a queue).
    private func devices() -> Response {
        do {
            let counts = try self.store.queueCounts()
            var records = try self.store.tokens()
            let known = Set(records.map(\.token))
            for token in counts.keys.sorted(by: { $0.hex < $1.hex }) where !known.contains(token) {
                records.append(TokenRecord(token: token, topic: "", deviceID: nil, registeredAt: 0, unregisteredAt: nil))
            }
            var writer = JSONWriter()
            writer.array(records) { writer, record in
                writer.object { members in
                    members.member("token") { $0.string(record.token.hex) }
                    members.member("topic") { $0.optionalString(record.topic.isEmpty ? nil : record.topic) }
                    members.member("deviceId") { $0.optionalString(record.deviceID) }
                    members.member("connected") { $0.raw(self.relay.hub.isConnected(record.token) ? "true" : "false") }
                    members.member("queued") { $0.number(counts[record.token] ?? 0) }
                    members.member("registeredAt") { writer in
                        if record.registeredAt > 0 { writer.string(Timestamp.rfc3339(millis: record.registeredAt)) } else { writer.raw("null") }
                    }
                    members.member("unregisteredAt") { writer in
                        if let at = record.unregisteredAt { writer.string(Timestamp.rfc3339(millis: at)) } else { writer.raw("null") }
                    }
                }
            }
            return Response(status: 200, body: writer.bytes)
        } catch {
            return Self.error(500, "\(error)")
        }
    }

    /// `{"topic": ...}` → a new token, as a device registering would get; with `"token"` too,
    /// that token (a test's fixed token, or an unregistered one made valid again).
    private func register(body: [UInt8], on eventLoop: any EventLoop) -> EventLoopFuture<Response> {
        guard let object = (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any],
            let topic = object["topic"] as? String, !topic.isEmpty, topic.utf8.count <= 255
        else {
            return eventLoop.makeSucceededFuture(Self.error(400, #"the body must be {"topic": "<bundle id>"} and may name a "token""#))
        }
        let chosen = object["token"] != nil
        let given = (object["token"] as? String).flatMap { DeviceToken(hex: $0) }
        if chosen && given == nil { return eventLoop.makeSucceededFuture(Self.badToken) }
        let token = given ?? DeviceToken.random()
        return self.relay.submit(.register(token: token, topic: topic, deviceID: nil), on: eventLoop).map { outcome in
            guard outcome == .registered else {
                return Self.error(409, chosen ? "the token is registered and valid" : "token collision; try again")
            }
            var writer = JSONWriter()
            writer.object { members in
                members.member("token") { $0.string(token.hex) }
                members.member("topic") { $0.string(topic) }
            }
            return Response(status: 201, body: writer.bytes)
        }.recover { Self.error(503, "\($0)") }
    }

    /// The tuples the feedback service would send now, without clearing them.
    private func feedback() -> Response {
        do {
            var writer = JSONWriter()
            writer.array(try self.store.feedback()) { writer, entry in
                writer.object { members in
                    members.member("token") { $0.string(entry.token.hex) }
                    members.member("topic") { $0.string(entry.topic) }
                    members.member("time") { $0.number(entry.at / 1000) }
                    members.member("unregisteredAt") { $0.string(Timestamp.rfc3339(millis: entry.at)) }
                }
            }
            return Response(status: 200, body: writer.bytes)
        } catch {
            return Self.error(500, "\(error)")
        }
    }

    private func unregister(_ token: DeviceToken, on eventLoop: any EventLoop) -> EventLoopFuture<Response> {
        self.relay.submit(.unregister(token: token), on: eventLoop).map { outcome in
            guard case .unregistered(let timestamp) = outcome else { return Self.error(500, "unexpected outcome \(outcome)") }
            var writer = JSONWriter()
            writer.object { members in
                members.member("token") { $0.string(token.hex) }
                members.member("unregisteredAt") { $0.number(timestamp) }
            }
            return Response(status: 200, body: writer.bytes)
        }.recover { Self.error(503, "\($0)") }
    }

    static let badToken = error(400, "a device token is even-length hex of 32 to 100 bytes")

    static func error(_ status: Int, _ message: String) -> Response {
        var writer = JSONWriter()
        writer.object { members in members.member("error") { $0.string(message) } }
        return Response(status: status, body: writer.bytes)
    }
}

import APNsCore
import APNsStore
import Foundation
import NIOCore

extension AdminRouter {
    func queued(for token: DeviceToken) -> Response {
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
    func devices() -> Response {
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
    func register(body: [UInt8], on eventLoop: any EventLoop) -> EventLoopFuture<Response> {
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
    func feedback() -> Response {
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

    func unregister(_ token: DeviceToken, on eventLoop: any EventLoop) -> EventLoopFuture<Response> {
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

}

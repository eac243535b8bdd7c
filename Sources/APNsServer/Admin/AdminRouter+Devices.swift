import APNsCore
import APNsInspection
import NIOCore

extension AdminRouter {
    /// `GET|PUT /api/v1/devices/<token>/power`: the power state of the device holding `token`;
    /// a PUT changes what its document gives (`online`, `lowPowerMode`, `locked`).
    func power(of token: DeviceToken, change: [UInt8]?) -> Response {
        let deviceID: String
        do {
            guard let record = try self.relay.records(of: [token]).first?.record else {
                return Self.error(.notFound, "no device holds token \(token.hex): register it first")
            }
            guard let id = record.deviceID else {
                return Self.error(
                    .conflict,
                    "token \(token.hex) was registered without a device (through the admin API), so no device's power can be set for it"
                )
            }
            deviceID = id
        } catch {
            return Self.error(.internalError, "\(error)")
        }
        guard let change else {
            return Response(status: 200, body: Relay.powerJSON(deviceID, self.power.power(of: deviceID)))
        }
        do {
            return Response(status: 200, body: Relay.powerJSON(deviceID, try self.relay.changePower(of: deviceID, change)))
        } catch {
            return Self.error(.badRequest, error.message)
        }
    }

    func queued(for token: DeviceToken) -> Response {
        do {
            let queued = try self.relay.queued(for: token)
            return Response(status: 200, body: JSONWriter.array(queued) { NotificationJSON.write($1.notification, into: &$0) })
        } catch {
            return Self.error(.internalError, "\(error)")
        }
    }

    /// Every token the emulator knows (registered, unregistered, or with a queue).
    func devices() -> Response {
        do {
            var (records, counts) = try self.relay.tokens()
            // A web app's token is registered without a device (its pushes are presented as they
            // are accepted), yet it lives on the device it was subscribed on: the list says which.
            let webApps = self.phone.webApps.withLock { $0.devicesByToken() }
            for index in records.indices where records[index].deviceID == nil {
                if let device = webApps[records[index].token] { records[index].deviceID = device }
            }
            let known = Set(records.map(\.token))
            for token in counts.keys.sorted(by: { $0.hex < $1.hex }) where !known.contains(token) {
                records.append(TokenRecord(token: token, topic: "", deviceID: nil, registeredAt: 0, unregisteredAt: nil))
            }
            let body = JSONWriter.array(records) { writer, record in
                DeviceJSON.write(
                    record, connected: self.relay.isConnected(record.token), queued: counts[record.token] ?? 0, into: &writer)
            }
            return Response(status: 200, body: body)
        } catch {
            return Self.error(.internalError, "\(error)")
        }
    }

    /// `{"topic": ...}` → a new token, as a device registering would get; with `"token"` too,
    /// that token (a test's fixed token, or an unregistered one made valid again).
    func register(body: [UInt8], on eventLoop: any EventLoop) -> EventLoopFuture<Response> {
        let registration: RegistrationDocument
        do {
            registration = try RequestDocument.decode(
                RegistrationDocument.self, from: body, example: RegistrationDocument.example)
        } catch {
            return eventLoop.makeSucceededFuture(Self.error(.badRequest, error.message))
        }
        let topic = registration.topic
        let chosen = registration.token != nil
        let given = registration.token.flatMap { DeviceToken(hex: $0) }
        if chosen && given == nil { return eventLoop.makeSucceededFuture(Self.badToken) }
        let token = given ?? self.phone.newToken()
        return self.relay.register(token: token, topic: topic, deviceID: nil, on: eventLoop).map { outcome in
            guard outcome == .registered else {
                return Self.error(.conflict, chosen ? "the token is registered and valid" : "token collision; try again")
            }
            return Response(status: 201, body: DeviceJSON.registered(token, topic: topic))
        }.recover { Self.error(.unavailable, "\($0)") }
    }

    /// The tuples the feedback service would send now, without clearing them.
    func feedback() -> Response {
        do {
            return Response(status: 200, body: JSONWriter.array(try self.relay.feedback()) { DeviceJSON.write($1, into: &$0) })
        } catch {
            return Self.error(.internalError, "\(error)")
        }
    }

    func unregister(_ token: DeviceToken, on eventLoop: any EventLoop) -> EventLoopFuture<Response> {
        self.relay.unregister(token, on: eventLoop).map { timestamp in
            Response(status: 200, body: DeviceJSON.unregistered(token, at: timestamp))
        }.recover { Self.error(.unavailable, "\($0)") }
    }
}

/// The routes of this concern: their entries in ``AdminRoute/table``.
extension AdminRoute {
    static let devices: [AdminRoute] = [
        AdminRoute("GET", "/api/v1/devices", cluster: .merged(.array)) { router, request in request.now(router.devices()) },
        AdminRoute("POST", "/api/v1/devices") { router, request in
            request.later(router.register(body: request.body, on: request.eventLoop))
        },
        AdminRoute("GET", "/api/v1/feedback", cluster: .merged(.array)) { router, request in request.now(router.feedback()) },
        AdminRoute("GET", "/api/v1/devices/{token}/notifications", cluster: .tokenOwner) { router, request in
            request.token { request.now(router.queued(for: $0)) }
        },
        AdminRoute("POST", "/api/v1/devices/{token}/unregister", cluster: .tokenOwner) { router, request in
            request.token { request.later(router.unregister($0, on: request.eventLoop)) }
        },
        AdminRoute("GET", "/api/v1/devices/{token}/power", cluster: .tokenOwner) { router, request in
            request.token { request.now(router.power(of: $0, change: nil)) }
        },
        AdminRoute("PUT", "/api/v1/devices/{token}/power", cluster: .tokenOwner) { router, request in
            request.token { request.now(router.power(of: $0, change: request.body)) }
        },
    ]
}

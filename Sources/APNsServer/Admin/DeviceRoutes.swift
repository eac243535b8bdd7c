import APNsCore
import APNsDevice
import APNsInspection
import NIOCore

/// The devices and their tokens: the list, registration, a token's queue, unregistering, the
/// feedback service's list, and a device's power state. They hold the relay, the phone, the power
/// book and the delivery hub, and nothing else.
struct DeviceRoutes: Sendable {
    typealias Response = AdminRouter.Response
    let relay: Relay
    /// The tokens, queues and feedback list as the store has them.
    let reader: StoreReader
    let phone: Phone
    let power: DevicePowerBook
    let hub: DeliveryHub

    /// `GET|PUT /api/v1/devices/<token>/power`: the power state of the device holding `token`;
    /// a PUT changes what its document gives (`online`, `lowPowerMode`, `locked`).
    func power(of token: DeviceToken, change: [UInt8]?) throws(AdminError) -> Response {
        let found: TokenRecord?
        do {
            found = try self.reader.records(of: [token]).first?.record
        } catch {
            throw AdminError(.internalError, "\(error)")
        }
        guard let record = found else {
            throw AdminError(.notFound, "no device holds token \(token.hex): register it first")
        }
        guard let deviceID = record.deviceID else {
            throw AdminError(
                .conflict,
                "token \(token.hex) was registered without a device (through the admin API), so no device's power can be set for it"
            )
        }
        guard let document = change else {
            return Response(status: 200, body: self.power.power(of: deviceID).json(deviceID: deviceID))
        }
        let change: DevicePower.Change
        do {
            change = try DevicePower.Change(document: document)
        } catch {
            throw AdminError(.badRequest, error.message)
        }
        let after = PowerOperations(power: self.power, hub: self.hub, relay: self.relay).change(deviceID, change)
        return Response(status: 200, body: after.json(deviceID: deviceID))
    }

    func queued(for token: DeviceToken) throws(AdminError) -> Response {
        do {
            let queued = try self.reader.queued(for: token)
            return Response(status: 200, body: JSONWriter.array(queued) { NotificationJSON.write($1.notification, into: &$0) })
        } catch {
            throw AdminError(.internalError, "\(error)")
        }
    }

    /// Every token the emulator knows (registered, unregistered, or with a queue).
    func devices() throws(AdminError) -> Response {
        do {
            var (records, counts) = try self.reader.tokens()
            // A web app's token is registered without a device (its pushes are presented as they
            // are accepted), yet it lives on the device it was subscribed on: the list says which.
            let webApps = self.phone.webApps.index.withLock { $0.devicesByToken() }
            for index in records.indices where records[index].deviceID == nil {
                if let device = webApps[records[index].token] { records[index].deviceID = device }
            }
            let known = Set(records.map(\.token))
            for token in counts.keys.sorted(by: { $0.hex < $1.hex }) where !known.contains(token) {
                records.append(TokenRecord(token: token, topic: "", deviceID: nil, registeredAt: 0, unregisteredAt: nil))
            }
            let body = JSONWriter.array(records) { writer, record in
                let connected = self.hub.isConnected(record.token)
                let phone = !connected && self.phone.ownDevices.ownDevice(of: record.token) != nil
                DeviceJSON.write(record, connected: connected, phone: phone, queued: counts[record.token] ?? 0, into: &writer)
            }
            return Response(status: 200, body: body)
        } catch {
            throw AdminError(.internalError, "\(error)")
        }
    }

    /// `{"topic": ...}` → a new token, as a device registering would get; with `"token"` too,
    /// that token (a test's fixed token, or an unregistered one made valid again).
    func register(body: [UInt8], on eventLoop: any EventLoop) throws(AdminError) -> EventLoopFuture<Response> {
        let registration: RegistrationDocument
        do {
            registration = try RequestDocument.decode(
                RegistrationDocument.self, from: body, example: RegistrationDocument.example)
        } catch {
            throw AdminError(.badRequest, error.message)
        }
        let topic = registration.topic
        let chosen = registration.token != nil
        let given = registration.token.flatMap { DeviceToken(hex: $0) }
        if chosen && given == nil { throw AdminRouter.badToken }
        return Registration(phone: self.phone, relay: self.relay)
            .register(topic: topic, deviceID: nil, environment: registration.environment, chosen: given, on: eventLoop)
            .failing(as: .unavailable)
            .flatMapThrowing { [environment = registration.environment ?? self.relay.defaultEnvironment] outcome in
                switch outcome {
                case .registered(let token):
                    return Response(status: 201, body: DeviceJSON.registered(token, topic: topic, environment: environment))
                case .chosenTaken: throw AdminError(.conflict, "the token is registered and valid")
                case .collided: throw AdminError(.conflict, "token collision; try again")
                }
            }
    }

    /// The tuples the feedback service would send now, without clearing them.
    func feedback() throws(AdminError) -> Response {
        do {
            return Response(status: 200, body: JSONWriter.array(try self.reader.feedback()) { DeviceJSON.write($1, into: &$0) })
        } catch {
            throw AdminError(.internalError, "\(error)")
        }
    }

    func unregister(_ token: DeviceToken, on eventLoop: any EventLoop) -> EventLoopFuture<Response> {
        self.relay.unregister(token, on: eventLoop).map { timestamp in
            Response(status: 200, body: DeviceJSON.unregistered(token, at: timestamp))
        }.failing(as: .unavailable)
    }

    /// Their entries in ``AdminRoute/table``.
    static let routes: [AdminRoute] = [
        AdminRoute("GET", "/api/v1/devices", cluster: .merged(.array), on: \.deviceRoutes) { routes, request throws(AdminError) in
            try request.now(routes.devices())
        },
        AdminRoute("POST", "/api/v1/devices", on: \.deviceRoutes) { routes, request throws(AdminError) in
            try request.later(routes.register(body: request.body, on: request.eventLoop))
        },
        AdminRoute("GET", "/api/v1/feedback", cluster: .merged(.array), on: \.deviceRoutes) {
            routes, request throws(AdminError) in
            try request.now(routes.feedback())
        },
        AdminRoute("GET", "/api/v1/devices/{token}/notifications", cluster: .tokenOwner, on: \.deviceRoutes) {
            routes, request throws(AdminError) in
            try request.now(routes.queued(for: request.deviceToken()))
        },
        AdminRoute("POST", "/api/v1/devices/{token}/unregister", cluster: .tokenOwner, on: \.deviceRoutes) {
            routes, request throws(AdminError) in
            try request.later(routes.unregister(request.deviceToken(), on: request.eventLoop))
        },
        AdminRoute("GET", "/api/v1/devices/{token}/power", cluster: .tokenOwner, on: \.deviceRoutes) {
            routes, request throws(AdminError) in
            try request.now(routes.power(of: request.deviceToken(), change: nil))
        },
        AdminRoute("PUT", "/api/v1/devices/{token}/power", cluster: .tokenOwner, on: \.deviceRoutes) {
            routes, request throws(AdminError) in
            try request.now(routes.power(of: request.deviceToken(), change: request.body))
        },
    ]
}

extension AdminRouter {
    var deviceRoutes: DeviceRoutes {
        DeviceRoutes(relay: self.relay, reader: self.reader, phone: self.phone, power: self.power, hub: self.hub)
    }
}

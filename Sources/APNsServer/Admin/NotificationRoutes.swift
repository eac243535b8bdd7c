import APNsCore
import APNsInspection
import APNsStore
import NIOCore

/// The journal's routes: pages, the newest, a wait, one notification with its delivery log and
/// `.apns` file, deletion, and the event stream. They hold the journal, the relay (the store's
/// copies to delete) and the store's reader (a device's tokens for `device:`), and nothing else.
struct NotificationRoutes: Sendable {
    typealias Response = AdminRouter.Response
    let inspection: Inspection
    let relay: Relay
    let reader: StoreReader

    /// Most items one page of `GET /api/v1/notifications` holds, and how many it holds by default.
    static let maximumPage = 1000
    static let defaultPage = 100
    /// The longest a wait may last, and how long it lasts by default.
    static let maximumWait = Duration.seconds(300)
    static let defaultWait = Duration.seconds(5)

    /// The journal filter a request's query asks for; `q`'s `device:` names a device by its id.
    func journalFilter(_ query: QueryParameters) throws(AdminError) -> JournalFilter {
        let reader = self.reader
        return try AdminRouter.read(JournalFilter.parse(query, devices: { reader.tokens(ofDevice: $0) }))
    }

    /// `GET /api/v1/notifications`: newest first, filtered, one page at a time.
    func notifications(_ query: QueryParameters) throws(AdminError) -> Response {
        let filter = try self.journalFilter(query)
        let limit = try AdminRouter.read(query.integer("limit", fallback: Self.defaultPage, maximum: Self.maximumPage))
        let before = try AdminRouter.read(
            query.parsed("cursor", { UInt64($0) }, "cursor must be the next value of an earlier page"))
        let page = self.inspection.journal.page(matching: filter, limit: limit, before: before)
        return Response(status: 200, body: JournalJSON.page(total: page.total, items: page.items, next: page.next))
    }

    /// `GET /api/v1/notifications/<id>`.
    func notification(id: String) throws(AdminError) -> Response {
        guard let entry = self.inspection.journal.entry(uniqueID: id) else {
            throw AdminError(.notFound, "no notification \(id) in the journal")
        }
        return Response(status: 200, body: JournalJSON.entry(entry))
    }

    /// `GET /api/v1/notifications/<id>/delivery-log`: its way through APNs in the Push
    /// Notifications Console's words, each step with a time on the emulator's clock.
    func deliveryLog(id: String) throws(AdminError) -> Response {
        guard let entry = self.inspection.journal.entry(uniqueID: id) else {
            throw AdminError(.notFound, "no notification \(id) in the journal")
        }
        guard let events = DeliveryLog.events(of: entry) else {
            throw AdminError(
                .conflict,
                "\(id) was not accepted (status \(entry.status)): APNs delivers nothing it refused, so it has no delivery log")
        }
        var writer = JSONWriter()
        writer.object { members in
            members.member("uniqueId") { $0.string(id) }
            members.member("status") { $0.string(entry.status.rawValue) }
            members.member("events") { DeliveryLog.write(events, into: &$0) }
        }
        return Response(status: 200, body: writer.bytes)
    }

    /// `GET /api/v1/notifications/<id>.apns`: the notification as a file `xcrun simctl push` reads.
    func simulatorFile(id: String) throws(AdminError) -> Response {
        guard let entry = self.inspection.journal.entry(uniqueID: id) else {
            throw AdminError(.notFound, "no notification \(id) in the journal")
        }
        guard let file = SimulatorPushFile.file(for: entry) else {
            throw AdminError(.conflict, "the payload of \(id) is not a JSON object, so no .apns file can hold it")
        }
        return Response(status: 200, body: file)
    }

    /// `GET /api/v1/notifications/latest`: the newest matching entry.
    func latest(_ query: QueryParameters) throws(AdminError) -> Response {
        let filter = try self.journalFilter(query)
        guard let entry = self.inspection.journal.newest(matching: filter) else {
            throw AdminError(.notFound, "no matching notification in the journal")
        }
        return Response(status: 200, body: JournalJSON.entry(entry))
    }

    /// `GET /api/v1/notifications/wait`: the oldest matching notification accepted after `after`
    /// (a unique id; by default, anything in the journal), as soon as there is one; 408 after `timeout`.
    func wait(_ query: QueryParameters, on eventLoop: any EventLoop) throws(AdminError) -> EventLoopFuture<Response> {
        let filter = try self.journalFilter(query)
        let timeout = try AdminRouter.read(query.duration("timeout", fallback: Self.defaultWait, maximum: Self.maximumWait))
        let journal = self.inspection.journal
        var after: UInt64 = 0
        if let id = query["after"] {
            guard let found = journal.id(of: id) else {
                throw AdminError(.badRequest, "after must be the id of a notification in the journal")
            }
            after = found
        }
        let promise = eventLoop.makePromise(of: Response.self)
        let waited = journal.wait(for: filter, after: after) { entry in
            promise.succeed(Response(status: 200, body: JournalJSON.entry(entry)))
        }
        if let found = waited.found {
            promise.succeed(Response(status: 200, body: JournalJSON.entry(found)))
        } else if let token = waited.token {
            let after = after
            let timer = eventLoop.scheduleTask(in: TimeAmount(timeout)) {
                // Only a wait still pending times out; one being resolved completes the promise itself.
                if journal.cancelWait(token) {
                    promise.succeed(Self.timedOut(filter, after: after, within: timeout, journal: journal))
                }
            }
            promise.futureResult.whenComplete { _ in timer.cancel() }
        }
        return promise.futureResult
    }

    /// How many of the newest notifications a timed-out wait describes.
    static let nearMissCount = 5

    /// 408 with what came closest (WireMock's near misses): the newest notifications since the
    /// wait's start, each with the conditions it failed.
    static func timedOut(_ filter: JournalFilter, after: UInt64, within timeout: Duration, journal: Journal) -> Response {
        let recent = journal.page(matching: JournalFilter(), limit: Self.nearMissCount, before: nil).items.prefix {
            $0.id > after
        }
        var writer = JSONWriter()
        writer.object { members in
            let closest = recent.isEmpty ? "nothing arrived" : "the newest \(recent.count) did not match: see nearMisses"
            members.member("error") { $0.string("no matching notification within \(timeout); \(closest)") }
            members.member("nearMisses") { writer in
                writer.array(recent) { writer, entry in
                    writer.object { fields in
                        fields.member("id") { $0.string(entry.uniqueID) }
                        fields.member("token") { writer in
                            switch entry.push {
                            case .accepted(let notification): writer.string(notification.token.hex)
                            case .rejected(let rejected): writer.string(rejected.token)
                            case .broadcast: writer.raw("null")
                            }
                        }
                        fields.member("topic") { $0.optionalString(entry.topic) }
                        fields.member("status") { $0.string(entry.status.rawValue) }
                        fields.member("receivedAt") { $0.string(Timestamp.rfc3339(millis: entry.receivedAt)) }
                        // A wait without a status takes accepted notifications only.
                        let rejectedMiss =
                            filter.status == nil && (entry.status == .rejected || entry.status == .notProcessed)
                            ? ["status: wanted an accepted notification (or status=\(entry.status)), was \(entry.status)"] : []
                        fields.member("failed") { $0.array(filter.misses(entry) + rejectedMiss) { $0.string($1) } }
                    }
                }
            }
        }
        return Response(status: AdminError.Reason.timedOut.status, body: writer.bytes)
    }

    /// `DELETE /api/v1/notifications`: forgets matching notifications, in the journal and the store
    /// (a queued one is then never delivered).
    func deleteNotifications(
        _ query: QueryParameters, on eventLoop: any EventLoop
    ) throws(AdminError) -> EventLoopFuture<Response> {
        let filter = try self.journalFilter(query)
        let removed = self.inspection.journal.remove(matching: filter)
        let (keys, refusals) = StoreArchiveSource.storeKeys(removed.keys)
        let answer = Response(status: 200, body: Array(#"{"deleted":\#(removed.count)}"#.utf8))
        guard !keys.isEmpty || !refusals.isEmpty else { return eventLoop.makeSucceededFuture(answer) }
        return self.relay.delete(keys, rejections: refusals, on: eventLoop).map { answer }.failing(as: .unavailable)
    }

    /// Their entries in ``AdminRoute/table``.
    static let routes: [AdminRoute] = [
        AdminRoute(
            "GET", "/api/v1/notifications", query: AdminRoute.filter.union(["limit", "cursor"]), cluster: .merged(.journalPage),
            on: \.notificationRoutes
        ) {
            routes, request throws(AdminError) in try request.now(routes.notifications(request.query))
        },
        AdminRoute("DELETE", "/api/v1/notifications", query: AdminRoute.filter, cluster: .everyShard, on: \.notificationRoutes) {
            routes, request throws(AdminError) in
            try request.later(routes.deleteNotifications(request.query, on: request.eventLoop))
        },
        AdminRoute(
            "GET", "/api/v1/notifications/latest", query: AdminRoute.filter, cluster: .merged(.newest), on: \.notificationRoutes
        ) {
            routes, request throws(AdminError) in try request.now(routes.latest(request.query))
        },
        AdminRoute(
            "GET", "/api/v1/notifications/wait", query: AdminRoute.filter.union(["after", "timeout"]), cluster: .merged(.wait),
            on: \.notificationRoutes
        ) {
            routes, request throws(AdminError) in try request.later(routes.wait(request.query, on: request.eventLoop))
        },
        AdminRoute("GET", "/api/v1/notifications/{id}", cluster: .uniqueIDOwner, on: \.notificationRoutes) {
            routes, request throws(AdminError) in
            try request.now(routes.notification(id: request[path: "id"]))
        },
        AdminRoute("GET", "/api/v1/notifications/{id}.apns", cluster: .uniqueIDOwner, on: \.notificationRoutes) {
            routes, request throws(AdminError) in
            try request.now(routes.simulatorFile(id: request[path: "id"]))
        },
        AdminRoute("GET", "/api/v1/notifications/{id}/delivery-log", cluster: .uniqueIDOwner, on: \.notificationRoutes) {
            routes, request throws(AdminError) in
            try request.now(routes.deliveryLog(id: request[path: "id"]))
        },
        AdminRoute("GET", "/api/v1/events", query: AdminRoute.filter, cluster: .merged(.events), on: \.notificationRoutes) {
            routes, request throws(AdminError) in
            request.eventLoop.makeSucceededFuture(.events(try routes.journalFilter(request.query), peers: nil))
        },
    ]
}

extension AdminRouter {
    var notificationRoutes: NotificationRoutes {
        NotificationRoutes(inspection: self.inspection, relay: self.relay, reader: self.reader)
    }

    /// The journal filter a request's query asks for (the cluster's merged routes read it too).
    func journalFilter(_ query: QueryParameters) throws(AdminError) -> JournalFilter {
        try self.notificationRoutes.journalFilter(query)
    }
}

import APNsCore
import APNsInspection
import Foundation
import NIOCore

/// The service's own routes: the web inbox's page and assets, health and readiness, Prometheus'
/// metrics, the OpenAPI document and the development CA's certificate. They hold what they
/// report on and nothing else.
struct ServiceRoutes: Sendable {
    typealias Response = AdminRouter.Response
    /// Whether the store can write.
    let relay: Relay
    /// The queue depth.
    let reader: StoreReader
    /// The connected devices.
    let hub: DeliveryHub
    /// The broadcast subscriptions the metrics count.
    let activities: LiveActivities
    let channels: BroadcastChannels
    let inspection: Inspection
    let readiness: ReadinessGate
    /// The development CA's certificate (`GET /ca.pem`), for clients that cannot read the
    /// emulator's files: a container's, another machine's.
    let caPath: String?
    /// Whether the admin API asks for its token: the inbox then offers to log out.
    let asksForToken: Bool

    /// `GET /readyz`: 200 once every listener is bound, while the store can write.
    func readyz() -> Response {
        guard self.readiness.isReady else {
            return AdminError(.unavailable, "starting: not every listener is bound yet").response
        }
        if let outage = self.relay.storeOutage {
            return AdminError(
                .unavailable,
                "the store cannot write since \(Timestamp.rfc3339(millis: outage.since)) (\(outage.error)); "
                    + "\(outage.refused) operations refused so far, providers are answered 503 ServiceUnavailable until a write succeeds"
            ).response
        }
        return Response(status: 200, body: Array(#"{"status":"ready"}"#.utf8))
    }

    /// `GET /ca.pem`: the development CA's certificate.
    func caCertificate() throws(AdminError) -> Response {
        guard let path = self.caPath, let pem = FileManager.default.contents(atPath: path) else {
            throw AdminError(
                .notFound,
                "no development CA here: this emulator serves a certificate of its own (--tls-cert), whose issuer its clients already trust"
            )
        }
        return Response(status: 200, body: Array(pem), contentType: "application/x-pem-file")
    }

    /// `GET /`: the web inbox.
    func inboxPage() -> Response {
        let port = self.readiness.address(.http2)?.port ?? 2197
        let production = self.readiness.address(.http2Production)?.port ?? port
        return Response(
            status: 200,
            body: InboxAssets.page(http2Port: port, productionPort: production, caPath: self.caPath, logout: self.asksForToken),
            contentType: "text/html; charset=utf-8")
    }

    /// `GET /inbox/<asset>`: its style, script and icon.
    func inboxAsset(_ name: String) throws(AdminError) -> Response {
        guard let asset = InboxAssets.asset(name) else { throw AdminError(.notFound, "no such endpoint: /inbox/\(name)") }
        return Response(status: 200, body: asset.body, contentType: asset.contentType)
    }

    /// `GET /metrics`: Prometheus text, with queue depth and connections read now.
    func metrics() throws(AdminError) -> Response {
        let depth: Int
        do {
            depth = try self.reader.queuedCount()
        } catch {
            throw AdminError(.internalError, "could not count the queued notifications: \(error)")
        }
        let (subscriptions, subscribers) = self.activities.subscriberTotals()
        let channels = self.channels.read { $0.channels.values.lazy.filter { !$0.isDeleted }.count }
        self.inspection.metrics.broadcast.record(subscriptions: subscriptions, uniqueSubscribers: subscribers, channels: channels)
        // The Console's counts are the journal's: every commit answered before this read is in them.
        self.inspection.journal.settle()
        let body = self.inspection.metrics.render(queueDepth: depth, devicesConnected: self.hub.connectedCount)
        return Response(status: 200, body: body, contentType: "text/plain; version=0.0.4; charset=utf-8")
    }

    /// Their entries in ``AdminRoute/table``.
    static let routes: [AdminRoute] = [
        AdminRoute("GET", "/", isPage: true, on: \.serviceRoutes) { routes, request in request.now(routes.inboxPage()) },
        AdminRoute("GET", "/inbox/{asset}", isPage: true, on: \.serviceRoutes) { routes, request throws(AdminError) in
            try request.now(routes.inboxAsset(request[path: "asset"]))
        },
        AdminRoute("GET", "/healthz") { _, request in request.now(.init(status: 200, body: Array(#"{"status":"ok"}"#.utf8))) },
        AdminRoute("GET", "/readyz", on: \.serviceRoutes) { routes, request in request.now(routes.readyz()) },
        AdminRoute("GET", "/metrics", cluster: .merged(.metrics), on: \.serviceRoutes) { routes, request throws(AdminError) in
            try request.now(routes.metrics())
        },
        AdminRoute("GET", "/openapi.json") { _, request in request.now(.init(status: 200, body: OpenAPIDocument.json)) },
        AdminRoute("GET", "/ca.pem", on: \.serviceRoutes) { routes, request throws(AdminError) in
            try request.now(routes.caCertificate())
        },
    ]
}

extension AdminRouter {
    var serviceRoutes: ServiceRoutes {
        ServiceRoutes(
            relay: self.relay, reader: self.reader, hub: self.hub, activities: self.phone.activities,
            channels: self.channels,
            inspection: self.inspection,
            readiness: self.readiness, caPath: self.caPath, asksForToken: self.asksForToken)
    }
}

import APNsCore
import APNsInspection
import Foundation
import NIOCore

/// Every admin route, once: the service's here, each concern's with its handlers in
/// `AdminRouter+<Concern>.swift`. A new route is one entry in its concern's list, its handler
/// beside it and its operation in `openapi.json`.
extension AdminRoute {
    /// The journal filter's parameters (`JournalFilter.parse`).
    static let filter: Set<String> = [
        "token", "topic", "pushType", "status", "interface", "since", "q", "outcome", "environment",
    ]

    static let table: [AdminRoute] =
        service + ClockRoutes.routes + PushRoutes.routes + NotificationRoutes.routes + FaultRoutes.routes + DeviceRoutes.routes
        + TokenRoutes.routes + PhoneRoutes.routes
        + LocalRoutes.routes
        + FocusRoutes.routes
        + ActivityRoutes.routes
        + WebAppRoutes.routes + ChannelRoutes.routes + clusterChannels + ProviderRoutes.routes

    static let service: [AdminRoute] = [
        AdminRoute("GET", "/", isPage: true) { router, request in request.now(router.inboxPage()) },
        AdminRoute("GET", "/inbox/{asset}", isPage: true) { router, request throws(AdminError) in
            try request.now(router.inboxAsset(request[path: "asset"]))
        },
        AdminRoute("GET", "/healthz") { _, request in request.now(.init(status: 200, body: Array(#"{"status":"ok"}"#.utf8))) },
        AdminRoute("GET", "/readyz") { router, request in request.now(router.readyz()) },
        AdminRoute("GET", "/metrics", cluster: .merged(.metrics)) { router, request throws(AdminError) in
            try request.now(router.metrics())
        },
        AdminRoute("GET", "/openapi.json") { _, request in request.now(.init(status: 200, body: OpenAPIDocument.json)) },
        AdminRoute("GET", "/ca.pem") { router, request throws(AdminError) in try request.now(router.caCertificate()) },
        AdminRoute("POST", "/api/v1/export") { router, request throws(AdminError) in try request.now(router.exportWorld()) },
        AdminRoute("POST", "/api/v1/reset", query: ["devices"], cluster: .everyShard) { router, request throws(AdminError) in
            try request.later(router.reset(request.query, body: request.body, on: request.eventLoop))
        },
    ]
}

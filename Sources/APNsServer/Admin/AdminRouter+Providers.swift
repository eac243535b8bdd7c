import APNsCore
import APNsInspection

/// The report card: the providers the HTTP/2 provider API has seen and each one's checks
/// (``ProviderReport``), judged when asked for. In a cluster each shard judges the connections
/// it served.
extension AdminRouter {
    /// `GET /api/v1/providers`.
    func providers() -> Response {
        Response(status: 200, body: ProviderJSON.list(self.inspection.providers.providers()))
    }

    /// `GET /api/v1/providers/<id>/report`.
    func providerReport(id: String) throws(AdminError) -> Response {
        guard let history = self.inspection.providers.history(of: id) else {
            let known = self.inspection.providers.providers().map(\.identity.id).prefix(10)
            throw AdminError(
                .notFound,
                "no provider \(id) has connected; GET /api/v1/providers lists those that have"
                    + (known.isEmpty ? " (none yet)" : ": \(known.joined(separator: ", "))"))
        }
        let report = ProviderReport(history, exam: self.inspection.providers.exam)
        return Response(status: 200, body: ProviderJSON.report(report))
    }
}

/// The routes of this concern: their entries in ``AdminRoute/table``.
extension AdminRoute {
    static let providers: [AdminRoute] = [
        AdminRoute("GET", "/api/v1/providers") { router, request in request.now(router.providers()) },
        AdminRoute("GET", "/api/v1/providers/{id}/report") { router, request throws(AdminError) in
            try request.now(router.providerReport(id: request[path: "id"]))
        },
    ]
}

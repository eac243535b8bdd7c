import APNsCore
import APNsInspection

/// The report card's routes: the providers the HTTP/2 provider API has seen and each one's checks
/// (``ProviderReport``), judged when asked for. In a cluster each shard judges the connections
/// it served. They hold the provider ledger and nothing else.
struct ProviderRoutes: Sendable {
    typealias Response = AdminRouter.Response
    let ledger: ProviderLedger

    /// `GET /api/v1/providers`.
    func providers() -> Response {
        Response(status: 200, body: ProviderJSON.list(self.ledger.providers()))
    }

    /// `GET /api/v1/providers/<id>/report`.
    func report(id: String) throws(AdminError) -> Response {
        guard let history = self.ledger.history(of: id) else {
            let known = self.ledger.providers().map(\.identity.id).prefix(10)
            throw AdminError(
                .notFound,
                "no provider \(id) has connected; GET /api/v1/providers lists those that have"
                    + (known.isEmpty ? " (none yet)" : ": \(known.joined(separator: ", "))"))
        }
        let report = ProviderReport(history, exam: self.ledger.exam)
        return Response(status: 200, body: ProviderJSON.report(report))
    }

    /// Their entries in ``AdminRoute/table``.
    static let routes: [AdminRoute] = [
        AdminRoute("GET", "/api/v1/providers", on: \.providerRoutes) { routes, request in request.now(routes.providers()) },
        AdminRoute("GET", "/api/v1/providers/{id}/report", on: \.providerRoutes) { routes, request throws(AdminError) in
            try request.now(routes.report(id: request[path: "id"]))
        },
    ]
}

extension AdminRouter {
    var providerRoutes: ProviderRoutes { ProviderRoutes(ledger: self.inspection.providers) }
}

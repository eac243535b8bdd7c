import APNsCore
import APNsInspection
import NIOCore

/// `/api/v1/faults[/<id>]`: the fault rules a test arranges. They hold the fault book and nothing else.
struct FaultRoutes: Sendable {
    typealias Response = AdminRouter.Response
    let faults: FaultBook

    func faultRules() -> Response {
        Response(status: 200, body: JSONWriter.array(self.faults.all) { JournalJSON.write($1, into: &$0) })
    }

    func addFaultRule(_ body: [UInt8]) throws(AdminError) -> Response {
        do {
            let parsed = try RequestDocument.decode(FaultRuleDocument.self, from: body, example: FaultRuleDocument.example)
            let rule = self.faults.add(
                match: parsed.match, action: parsed.action, times: parsed.times, probability: parsed.probability)
            return Response(status: 201, body: JournalJSON.rule(rule))
        } catch {
            throw AdminError(.badRequest, error.message)
        }
    }

    func removeFaultRules() -> Response {
        let book = self.faults
        let count = book.all.count
        book.removeAll()
        return Response(status: 200, body: Array(#"{"deleted":\#(count)}"#.utf8))
    }

    func faultRule(id: String) throws(AdminError) -> Response {
        guard let rule = self.faults.rule(id: id) else { throw AdminError(.notFound, "no fault rule \(id)") }
        return Response(status: 200, body: JournalJSON.rule(rule))
    }

    func removeFaultRule(id: String) throws(AdminError) -> Response {
        guard self.faults.remove(id: id) else { throw AdminError(.notFound, "no fault rule \(id)") }
        return Response(status: 200, body: Array(#"{"deleted":1}"#.utf8))
    }

    /// Their entries in ``AdminRoute/table``.
    static let routes: [AdminRoute] = [
        AdminRoute("GET", "/api/v1/faults", cluster: .merged(.array), on: \.faultRoutes) { routes, request in
            request.now(routes.faultRules())
        },
        AdminRoute("POST", "/api/v1/faults", cluster: .faultRule, on: \.faultRoutes) { routes, request throws(AdminError) in
            try request.now(routes.addFaultRule(request.body))
        },
        AdminRoute("DELETE", "/api/v1/faults", cluster: .everyShard, on: \.faultRoutes) { routes, request in
            request.now(routes.removeFaultRules())
        },
        AdminRoute("GET", "/api/v1/faults/{id}", cluster: .faultOwner, on: \.faultRoutes) { routes, request throws(AdminError) in
            try request.now(routes.faultRule(id: request[path: "id"]))
        },
        AdminRoute("DELETE", "/api/v1/faults/{id}", cluster: .faultOwner, on: \.faultRoutes) {
            routes, request throws(AdminError) in
            try request.now(routes.removeFaultRule(id: request[path: "id"]))
        },
    ]
}

extension AdminRouter {
    var faultRoutes: FaultRoutes { FaultRoutes(faults: self.inspection.faults) }
}

import APNsCore
import APNsInspection
import NIOCore

/// `/api/v1/faults[/<id>]`: the fault rules a test arranges.
extension AdminRouter {
    func faultRules() -> Response {
        Response(status: 200, body: JSONWriter.array(self.inspection.faults.all) { JournalJSON.write($1, into: &$0) })
    }

    func addFaultRule(_ body: [UInt8]) throws(AdminError) -> Response {
        do {
            let parsed = try RequestDocument.decode(FaultRuleDocument.self, from: body, example: FaultRuleDocument.example)
            let rule = self.inspection.faults.add(
                match: parsed.match, action: parsed.action, times: parsed.times, probability: parsed.probability)
            return Response(status: 201, body: JournalJSON.rule(rule))
        } catch {
            throw AdminError(.badRequest, error.message)
        }
    }

    func removeFaultRules() -> Response {
        let book = self.inspection.faults
        let count = book.all.count
        book.removeAll()
        return Response(status: 200, body: Array(#"{"deleted":\#(count)}"#.utf8))
    }

    func faultRule(id: String) throws(AdminError) -> Response {
        guard let rule = self.inspection.faults.rule(id: id) else { throw AdminError(.notFound, "no fault rule \(id)") }
        return Response(status: 200, body: JournalJSON.rule(rule))
    }

    func removeFaultRule(id: String) throws(AdminError) -> Response {
        guard self.inspection.faults.remove(id: id) else { throw AdminError(.notFound, "no fault rule \(id)") }
        return Response(status: 200, body: Array(#"{"deleted":1}"#.utf8))
    }
}

/// The routes of this concern: their entries in ``AdminRoute/table``.
extension AdminRoute {
    static let faults: [AdminRoute] = [
        AdminRoute("GET", "/api/v1/faults", cluster: .merged(.array)) { router, request in request.now(router.faultRules()) },
        AdminRoute("POST", "/api/v1/faults", cluster: .faultRule) { router, request throws(AdminError) in
            try request.now(router.addFaultRule(request.body))
        },
        AdminRoute("DELETE", "/api/v1/faults", cluster: .everyShard) { router, request in request.now(router.removeFaultRules())
        },
        AdminRoute("GET", "/api/v1/faults/{id}", cluster: .faultOwner) { router, request throws(AdminError) in
            try request.now(router.faultRule(id: request[path: "id"]))
        },
        AdminRoute("DELETE", "/api/v1/faults/{id}", cluster: .faultOwner) { router, request throws(AdminError) in
            try request.now(router.removeFaultRule(id: request[path: "id"]))
        },
    ]
}

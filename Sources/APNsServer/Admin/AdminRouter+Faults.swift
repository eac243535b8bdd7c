import APNsCore
import APNsInspection
import NIOCore

extension AdminRouter {
    /// `/api/v1/faults[/<id>]`.
    func routeFaults(_ request: Request) throws(InspectionError) -> EventLoopFuture<Reply> {
        switch request.segments.count {
        case 3: return request.now(self.faults(method: request.method, id: nil, body: request.body))
        case 4: return request.now(self.faults(method: request.method, id: request.segments[3], body: request.body))
        default: return request.now(Self.error(404, "no such endpoint: \(request.path)"))
        }
    }

    /// `/api/v1/faults` and `/api/v1/faults/<id>`.
    func faults(method: String, id: String?, body: [UInt8]) -> Response {
        let book = self.inspection.faults
        switch (method, id) {
        case ("GET", nil):
            return Response(status: 200, body: JSONWriter.array(book.all) { JournalJSON.write($1, into: &$0) })
        case ("POST", nil):
            do {
                let parsed = try RequestDocument.decode(FaultRuleDocument.self, from: body, example: FaultRuleDocument.example)
                let rule = book.add(match: parsed.match, action: parsed.action, times: parsed.times, probability: parsed.probability)
                return Response(status: 201, body: JournalJSON.rule(rule))
            } catch {
                return Self.error(400, error.message)
            }
        case ("DELETE", nil):
            let count = book.all.count
            book.removeAll()
            return Response(status: 200, body: Array(#"{"deleted":\#(count)}"#.utf8))
        case ("GET", let id?):
            guard let rule = book.rule(id: id) else { return Self.error(404, "no fault rule \(id)") }
            return Response(status: 200, body: JournalJSON.rule(rule))
        case ("DELETE", let id?):
            guard book.remove(id: id) else { return Self.error(404, "no fault rule \(id)") }
            return Response(status: 200, body: Array(#"{"deleted":1}"#.utf8))
        default:
            return id == nil ? Self.notAllowed("GET", "POST", "DELETE") : Self.notAllowed("GET", "DELETE")
        }
    }
}

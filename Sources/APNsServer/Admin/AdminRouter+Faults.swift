import APNsCore
import APNsInspection
import NIOCore

extension AdminRouter {
    /// `/api/v1/faults[/<id>]`.
    func routeFaults(_ request: Request) throws(ServerError) -> EventLoopFuture<Reply> {
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
            var writer = JSONWriter()
            writer.array(book.all) { writer, rule in JournalJSON.write(rule, into: &writer) }
            return Response(status: 200, body: writer.bytes)
        case ("POST", nil):
            do {
                let parsed = try AdminBody.decode(FaultRuleBody.self, from: body, example: FaultRuleBody.example)
                let rule = book.add(match: parsed.match, action: parsed.action, times: parsed.times, probability: parsed.probability)
                var writer = JSONWriter()
                JournalJSON.write(rule, into: &writer)
                return Response(status: 201, body: writer.bytes)
            } catch {
                return Self.error(400, error.message)
            }
        case ("DELETE", nil):
            let count = book.all.count
            book.removeAll()
            return Response(status: 200, body: Array(#"{"deleted":\#(count)}"#.utf8))
        case ("GET", let id?):
            guard let rule = book.rule(id: id) else { return Self.error(404, "no fault rule \(id)") }
            var writer = JSONWriter()
            JournalJSON.write(rule, into: &writer)
            return Response(status: 200, body: writer.bytes)
        case ("DELETE", let id?):
            guard book.remove(id: id) else { return Self.error(404, "no fault rule \(id)") }
            return Response(status: 200, body: Array(#"{"deleted":1}"#.utf8))
        default:
            return Self.error(405, id == nil ? "use GET, POST or DELETE" : "use GET or DELETE")
        }
    }
}

import APNsCore
import Foundation
import NIOCore

extension AdminRouter {
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
                let parsed = try Self.faultRule(from: body)
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

    /// Reads a rule: `{"match": {...}, "action": {"type": ..., ...}, "times": N, "probability": p}`.
    static func faultRule(
        from body: [UInt8]
    ) throws(ServerError) -> (match: FaultRule.Match, action: FaultRule.Action, times: Int?, probability: Double) {
        guard let object = (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any] else {
            throw ServerError(name: "fault", message: #"the body must be a JSON object: {"match": {...}, "action": {"type": ...}}"#)
        }
        let match = try self.faultMatch(object["match"])
        let action = try self.faultAction(object["action"])
        var times: Int?
        if let value = object["times"], !(value is NSNull) {
            guard let number = value as? Int, number >= 1 else { throw ServerError(name: "fault", message: "times must be a whole number of at least 1") }
            times = number
        }
        var probability = 1.0
        if let value = object["probability"], !(value is NSNull) {
            guard let number = (value as? NSNumber)?.doubleValue, number > 0, number <= 1 else {
                throw ServerError(name: "fault", message: "probability must be a number above 0 and at most 1")
            }
            probability = number
        }
        if let interface = match.interface, !action.applies(to: interface) {
            throw ServerError(name: "fault", message: "a \(action.name) action \(Self.interfaces(of: action)); it never applies to \(interface)")
        }
        return (match, action, times, probability)
    }

    private static func faultMatch(_ value: Any?) throws(ServerError) -> FaultRule.Match {
        guard let value, !(value is NSNull) else { return FaultRule.Match() }
        guard let fields = value as? [String: Any] else { throw ServerError(name: "fault", message: "match must be an object") }
        let known: Set = ["token", "topic", "pushType", "interface"]
        if let unknown = fields.keys.first(where: { !known.contains($0) }) {
            throw ServerError(name: "fault", message: "match has no field \(unknown); use token, topic, pushType or interface")
        }
        func text(_ name: String) throws(ServerError) -> String? {
            guard let value = fields[name], !(value is NSNull) else { return nil }
            guard let string = value as? String, !string.isEmpty else { throw ServerError(name: "fault", message: "match.\(name) must be a string") }
            return string
        }
        var interface: Interface?
        if let name = try text("interface") {
            guard let parsed = Interface(rawValue: name) else { throw ServerError(name: "fault", message: "match.interface must be http2 or binary") }
            interface = parsed
        }
        return FaultRule.Match(token: try text("token"), topic: try text("topic"), pushType: try text("pushType"), interface: interface)
    }

    private static func faultAction(_ value: Any?) throws(ServerError) -> FaultRule.Action {
        let fields: [String: Any]
        if let name = value as? String {
            fields = ["type": name]
        } else if let object = value as? [String: Any] {
            fields = object
        } else {
            throw ServerError(name: "fault", message: #"action must be an object with a "type": respond, delay, reset or goaway"#)
        }
        switch fields["type"] as? String {
        case "respond":
            let reason = fields["reason"] as? String
            let status = fields["status"] as? Int
            let statusByte = fields["statusByte"] as? Int
            if fields["reason"] != nil && (reason ?? "").isEmpty { throw ServerError(name: "fault", message: "reason must be a non-empty string") }
            if fields["status"] != nil && !(400...599).contains(status ?? 0) {
                throw ServerError(name: "fault", message: "status must be an HTTP error status from 400 to 599")
            }
            if fields["statusByte"] != nil && !(1...255).contains(statusByte ?? 0) {
                throw ServerError(name: "fault", message: "statusByte must be from 1 to 255")
            }
            guard reason != nil || statusByte != nil else {
                throw ServerError(name: "fault", message: "a respond action needs a reason (HTTP/2) or a statusByte (binary), or both")
            }
            if let reason, status == nil, Reason(wire: reason) == nil {
                throw ServerError(name: "fault", message: "\(reason) is not an APNs reason; give its status too")
            }
            return .respond(reason: reason, status: status, statusByte: statusByte.map { UInt8($0) })
        case "delay":
            guard let ms = fields["ms"] as? Int, (1...60_000).contains(ms) else {
                throw ServerError(name: "fault", message: "a delay action needs ms, from 1 to 60000")
            }
            return .delay(.milliseconds(ms))
        case "reset":
            return .reset
        case "goaway":
            let reason = fields["reason"] as? String ?? Reason.shutdown.wire
            guard !reason.isEmpty else { throw ServerError(name: "fault", message: "reason must be a non-empty string") }
            return .goAway(reason: reason)
        default:
            throw ServerError(name: "fault", message: #"action.type must be respond, delay, reset or goaway"#)
        }
    }

    private static func interfaces(of action: FaultRule.Action) -> String {
        switch action {
        case .respond(let reason, _, let statusByte):
            if reason != nil && statusByte == nil { return "with only a reason is for http2" }
            return "with only a statusByte is for binary"
        case .delay, .goAway: return "is for http2"
        case .reset: return "is for both"
        }
    }
}

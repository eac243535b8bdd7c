import APNsCore

/// A fault rule's `action`: `{"type": "respond" | "delay" | "reset" | "goaway", ...}`, or just the
/// type's name as a string.
public struct FaultActionDocument: Decodable {
    public var action: FaultRule.Action

    static let notAnAction = FaultRuleDocument.bad(#"action must be an object with a "type": respond, delay, reset or goaway"#)

    private enum CodingKeys: String, CodingKey, CaseIterable { case type, reason, status, statusByte, ms }

    public init(from decoder: any Decoder) throws {
        if let name = try? decoder.singleValueContainer().decode(String.self) {
            self.action = try Self.action(type: name, container: nil)
            return
        }
        guard (try? decoder.container(keyedBy: AnyCodingKey.self)) != nil else { throw Self.notAnAction }
        try decoder.refuseUnknownKeys(CodingKeys.self, in: "action")
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let type = try? container.decodeIfPresent(String.self, forKey: .type)
        self.action = try Self.action(type: type ?? "", container: container)
        // A field another type takes would be ignored here: refused by name, as unknown fields are.
        if let stray = container.allKeys.first(where: { !self.action.fields.contains($0.stringValue) }) {
            throw FaultRuleDocument.bad(
                "a \(self.action.name) action has no field \(stray.stringValue) (it takes \(self.action.fields.joined(separator: ", ")))"
            )
        }
    }

    private static func action(type: String, container: KeyedDecodingContainer<CodingKeys>?) throws -> FaultRule.Action {
        switch type {
        case "respond": return try self.respond(container)
        case "delay":
            guard let ms = try? container?.decodeIfPresent(Int.self, forKey: .ms), (1...60_000).contains(ms) else {
                throw FaultRuleDocument.bad("a delay action needs ms, from 1 to 60000")
            }
            return .delay(.milliseconds(ms))
        case "reset":
            return .reset
        case "goaway":
            let reason = try self.text(.reason, container) ?? Reason.shutdown.wire
            return .goAway(reason: reason)
        default:
            throw FaultRuleDocument.bad("action.type must be respond, delay, reset or goaway")
        }
    }

    private static func respond(_ container: KeyedDecodingContainer<CodingKeys>?) throws -> FaultRule.Action {
        let reason = try self.text(.reason, container)
        let status = try self.number(.status, container, in: 400...599, "status must be an HTTP error status from 400 to 599")
        let statusByte = try self.number(.statusByte, container, in: 1...255, "statusByte must be from 1 to 255")
        guard reason != nil || statusByte != nil else {
            throw FaultRuleDocument.bad("a respond action needs a reason (HTTP/2) or a statusByte (binary), or both")
        }
        if let reason, status == nil, Reason(wire: reason) == nil {
            throw FaultRuleDocument.bad("\(reason) is not an APNs reason; give its status too")
        }
        return .respond(reason: reason, status: status, statusByte: statusByte.map { UInt8($0) })
    }

    /// A non-empty string field, nil when absent.
    private static func text(_ key: CodingKeys, _ container: KeyedDecodingContainer<CodingKeys>?) throws -> String? {
        guard let container, container.contains(key), try !container.decodeNil(forKey: key) else { return nil }
        guard let value = try? container.decode(String.self, forKey: key), !value.isEmpty else {
            throw FaultRuleDocument.bad("\(key.stringValue) must be a non-empty string")
        }
        return value
    }

    /// A whole-number field within `range`, nil when absent.
    private static func number(
        _ key: CodingKeys,
        _ container: KeyedDecodingContainer<CodingKeys>?,
        in range: ClosedRange<Int>,
        _ message: String
    ) throws -> Int? {
        guard let container, container.contains(key), try !container.decodeNil(forKey: key) else { return nil }
        guard let value = try? container.decode(Int.self, forKey: key), range.contains(value) else {
            throw FaultRuleDocument.bad(message)
        }
        return value
    }
}

extension FaultRule.Action {
    /// The fields of an action document of this type.
    var fields: [String] {
        switch self {
        case .respond: return ["type", "reason", "status", "statusByte"]
        case .delay: return ["type", "ms"]
        case .reset: return ["type"]
        case .goAway: return ["type", "reason"]
        }
    }
}

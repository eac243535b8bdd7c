import Foundation

/// Between `JSONValue` and Foundation's object graph (`[String: Any]`, `[Any]`, `String`,
/// `NSNumber`, `Bool`, `NSNull`): what YAML parsers and tests written against `Any` hand over and
/// expect. The emulator's own code reads and writes `JSONValue`; this is the edge.
extension JSONValue {
    /// A JSON value from a Foundation object graph; nil for anything JSON cannot hold (a date,
    /// a number that is not finite, a dictionary with keys that are not strings).
    public init?(foundation object: Any) {
        // Exact types first: on Linux a Swift Bool or Int may also cast to NSNumber, and an
        // NSNumber to Bool, so casts alone cannot tell `true` from `1`.
        if object is NSNull {
            self = .null
        } else if let flag = object as? Bool, type(of: object) == Bool.self {
            self = .bool(flag)
        } else if let number = object as? NSNumber, type(of: object) is NSNumber.Type {
            if String(cString: number.objCType) == "c" {
                self = .bool(number.boolValue)
            } else {
                guard number.doubleValue.isFinite else { return nil }
                self = .number(number.doubleValue)
            }
        } else if let text = object as? String {
            self = .string(text)
        } else if let number = object as? Int {
            self = .number(Double(number))
        } else if let number = object as? Double {
            guard number.isFinite else { return nil }
            self = .number(number)
        } else if let items = object as? [Any] {
            var values: [JSONValue] = []
            for item in items {
                guard let value = JSONValue(foundation: item) else { return nil }
                values.append(value)
            }
            self = .array(values)
        } else if let members = object as? [String: Any] {
            var values: [String: JSONValue] = [:]
            for (name, member) in members {
                guard let value = JSONValue(foundation: member) else { return nil }
                values[name] = value
            }
            self = .object(values)
        } else {
            return nil
        }
    }

    /// The value as Foundation's object graph, as `JSONSerialization` would give it: numbers
    /// as `NSNumber` (so `as? Int` and `as? Double` both read them), `null` as `NSNull`.
    public var foundation: Any {
        switch self {
        case .null: NSNull()
        case .bool(let flag): flag
        case .string(let text): text
        case .number(let number):
            number == number.rounded() && abs(number) < 9e15 ? NSNumber(value: Int64(number)) : NSNumber(value: number)
        case .array(let items): items.map(\.foundation)
        case .object(let members): members.mapValues(\.foundation)
        }
    }

    /// Parses `bytes` into Foundation's object graph; nil when they are not one JSON value.
    public static func foundationObject(_ bytes: [UInt8]) -> Any? {
        JSONValue.parse(bytes)?.foundation
    }

    /// JSON text of a Foundation object graph, object members in name order; nil when the graph
    /// holds what JSON cannot.
    public static func text(ofFoundation object: Any, pretty: Bool = false) -> [UInt8]? {
        guard let value = JSONValue(foundation: object) else { return nil }
        return pretty ? value.prettyPrinted : value.compact
    }
}

import APNsCore
import Foundation

/// Decodes a push's `attributes` or `content-state` the way ActivityKit does: with a plain
/// `JSONDecoder` (default strategies) into the app's declared struct. So a `Date` is a number of
/// seconds since 2001-01-01, a missing non-optional field or a wrong type fails with the
/// decoder's own error, and keys the struct does not declare are ignored.
///
/// The declared struct is not compiled here; its fields drive the decoder's real containers, so
/// every error (its kind, its message, its coding path) is the one the app's type would raise.
public enum ActivityDecoder {
    /// The decoded value, as the app would hold it: dates as RFC 3339 text (UTC), URLs as text.
    /// `path` leads to the struct's object inside `json` (`["aps", "content-state"]` in a push).
    public static func decode(
        _ fields: [ActivityField], at path: [String], in json: [UInt8]
    ) -> Result<JSONValue, ActivityDecodingError> {
        let decoder = JSONDecoder()
        decoder.userInfo[Self.plan] = DecodingPlan(path: path, fields: fields)
        let member = path.joined(separator: ".")
        do {
            return .success(try decoder.decode(PayloadMember.self, from: Data(json)).value)
        } catch let error as DecodingError {
            return .failure(ActivityDecodingError(error, member: member))
        } catch {
            return .failure(ActivityDecodingError(kind: "dataCorrupted", path: member, message: "\(error)"))
        }
    }

    static let plan = CodingUserInfoKey(rawValue: "apns-emulator.activity-plan")!

    struct DecodingPlan: Sendable {
        var path: [String]
        var fields: [ActivityField]
    }

    /// The object at the plan's path, decoded by the plan in the decoder's user info.
    struct PayloadMember: Decodable {
        var value: JSONValue

        init(from decoder: any Decoder) throws {
            guard let plan = decoder.userInfo[ActivityDecoder.plan] as? DecodingPlan else {
                throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "no decoding plan"))
            }
            var container = try decoder.container(keyedBy: AnyCodingKey.self)
            for name in plan.path {
                container = try container.nestedContainer(keyedBy: AnyCodingKey.self, forKey: AnyCodingKey(stringValue: name))
            }
            self.value = try ActivityDecoder.object(plan.fields, container)
        }
    }

    /// A struct: each declared field in turn, as the synthesized `init(from:)` reads them.
    static func object(_ fields: [ActivityField], _ container: KeyedDecodingContainer<AnyCodingKey>) throws -> JSONValue {
        var members: [String: JSONValue] = [:]
        for field in fields {
            let key = AnyCodingKey(stringValue: field.name)
            if field.type.isOptional {
                // Synthesized code uses decodeIfPresent: absent or null is nil, anything else must fit.
                guard container.contains(key), try !container.decodeNil(forKey: key) else { continue }
            }
            members[field.name] = try Self.value(field.type.unwrapped, container, key)
        }
        return .object(members)
    }

    static func value(
        _ type: ActivityFieldType, _ container: KeyedDecodingContainer<AnyCodingKey>, _ key: AnyCodingKey
    ) throws -> JSONValue {
        switch type {
        case .string: return .string(try container.decode(String.self, forKey: key))
        case .int: return .number(Double(try container.decode(Int.self, forKey: key)))
        case .double: return .number(try container.decode(Double.self, forKey: key))
        case .bool: return .bool(try container.decode(Bool.self, forKey: key))
        case .date: return .string(Self.text(of: try container.decode(Date.self, forKey: key)))
        case .url: return .string(try container.decode(URL.self, forKey: key).absoluteString)
        case .object(let fields) where fields.isEmpty:
            // Any object: checked to be one, kept whole.
            _ = try container.nestedContainer(keyedBy: AnyCodingKey.self, forKey: key)
            return try container.decode(JSONValue.self, forKey: key)
        case .object(let fields):
            return try Self.object(fields, try container.nestedContainer(keyedBy: AnyCodingKey.self, forKey: key))
        case .json: return try container.decode(JSONValue.self, forKey: key)
        case .array(let element):
            var items = try container.nestedUnkeyedContainer(forKey: key)
            return try Self.array(element, &items)
        case .optional(let wrapped): return try Self.value(wrapped, container, key)
        }
    }

    static func array(_ element: ActivityFieldType, _ items: inout any UnkeyedDecodingContainer) throws -> JSONValue {
        var values: [JSONValue] = []
        while !items.isAtEnd {
            if element.isOptional, try items.decodeNil() {
                values.append(.null)
                continue
            }
            switch element.unwrapped {
            case .string: values.append(.string(try items.decode(String.self)))
            case .int: values.append(.number(Double(try items.decode(Int.self))))
            case .double: values.append(.number(try items.decode(Double.self)))
            case .bool: values.append(.bool(try items.decode(Bool.self)))
            case .date: values.append(.string(Self.text(of: try items.decode(Date.self))))
            case .url: values.append(.string(try items.decode(URL.self).absoluteString))
            case .object(let fields) where fields.isEmpty: values.append(try items.decode(JSONValue.self))
            case .object(let fields):
                values.append(try Self.object(fields, try items.nestedContainer(keyedBy: AnyCodingKey.self)))
            case .json: values.append(try items.decode(JSONValue.self))
            case .array(let inner):
                var nested = try items.nestedUnkeyedContainer()
                values.append(try Self.array(inner, &nested))
            case .optional: break
            }
        }
        return .array(values)
    }

    /// A date as people read it (and as the inbox shows it): RFC 3339 in UTC, with milliseconds
    /// when it has them.
    public static func text(of date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions =
            date.timeIntervalSince1970.truncatingRemainder(dividingBy: 1) == 0
            ? [.withInternetDateTime] : [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: date)
    }
}

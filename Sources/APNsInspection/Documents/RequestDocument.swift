import APNsDevice
import Foundation

/// Decodes request documents (the admin API's bodies) with `Decodable` types: unknown fields
/// are refused by name, and every failure says which field is wrong and how.
public enum RequestDocument {
    /// Decodes `body` as `T`. `example` is shown when the body is not a JSON object of that shape.
    public static func decode<T: Decodable>(_ type: T.Type, from body: [UInt8], example: String) throws(InspectionError) -> T {
        do {
            return try JSONDecoder().decode(T.self, from: Data(body))
        } catch let error as InspectionError {
            throw error
        } catch let error as DeviceModelError {
            let message = error.message.hasPrefix(error.field) ? error.message : "\(error.field): \(error.message)"
            throw InspectionError(.badDocument, field: error.field, message)
        } catch let error as DecodingError {
            throw Self.explain(error, example: example)
        } catch {
            throw InspectionError(.badDocument, field: "body", "the body must be a JSON object: \(example)")
        }
    }

    /// A decoding failure in words: the field's path and what it must be.
    private static func explain(_ error: DecodingError, example: String) -> InspectionError {
        let (path, what): ([any CodingKey], String)
        switch error {
        case .keyNotFound(let key, let context): (path, what) = (context.codingPath + [key], "is missing")
        case .typeMismatch(let type, let context): (path, what) = (context.codingPath, "must be \(Self.name(of: type))")
        case .valueNotFound(let type, let context): (path, what) = (context.codingPath, "must be \(Self.name(of: type))")
        case .dataCorrupted(let context): (path, what) = (context.codingPath, context.debugDescription)
        @unknown default: (path, what) = ([], "\(error)")
        }
        guard !path.isEmpty else {
            return InspectionError(.badDocument, field: "body", "the body must be a JSON object: \(example)")
        }
        let field = path.map(\.stringValue).joined(separator: ".")
        return InspectionError(.badDocument, field: field, "\(field) \(what)")
    }

    private static func name(of type: Any.Type) -> String {
        switch type {
        case is String.Type: return "a string"
        case is Bool.Type: return "true or false"
        case is Int.Type, is UInt8.Type: return "a whole number"
        case is Double.Type: return "a number"
        default: return "an object"
        }
    }
}

extension Decoder {
    /// Throws when the object being decoded has a field `Keys` does not name, listing those it may have.
    func refuseUnknownKeys<Keys: CodingKey & CaseIterable>(_ keys: Keys.Type, in object: String) throws {
        guard let (unknown, known) = try self.unknownKey(keys) else { return }
        throw InspectionError(.badDocument, field: unknown, "\(object) has no field \(unknown); use \(known)")
    }
}

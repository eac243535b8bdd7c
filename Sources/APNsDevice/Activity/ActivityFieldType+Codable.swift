import APNsCore

/// The document form of a field type: a short string where one says it, else an object.
extension ActivityFieldType: Codable {
    private enum Keys: String, CodingKey, CaseIterable { case type, fields, items, of, wrapped, optional }

    public init(from decoder: any Decoder) throws {
        if let single = try? decoder.singleValueContainer(), let text = try? single.decode(String.self) {
            guard let type = ActivityFieldType(notation: text) else {
                throw DeviceModelError(
                    .invalid, field: decoder.fieldPath,
                    "\(decoder.fieldPath): \(text) is not a field type; use string, int, double, bool, date, url, array, object, json, [type], type? or {\"type\": \"object\", \"fields\": {...}}"
                )
            }
            self = type
            return
        }
        try decoder.refuseUnknown(Keys.self, in: "a field type")
        let container = try decoder.container(keyedBy: Keys.self)
        let name = try container.decode(String.self, forKey: .type)
        var base: ActivityFieldType
        switch name.lowercased() {
        case "object":
            base = .object(try container.decodeIfPresent(ActivityFields.self, forKey: .fields)?.fields ?? [])
        case "array":
            base = .array(try Self.element(container) ?? .json)
        case "optional":
            guard let wrapped = try Self.element(container) else {
                throw DeviceModelError(
                    .invalid, field: decoder.fieldPath,
                    "\(decoder.fieldPath): an optional names its type in \"of\", such as {\"type\": \"optional\", \"of\": \"date\"}"
                )
            }
            base = .optional(wrapped)
        default:
            guard let scalar = ActivityFieldType.scalars[name.lowercased()] else {
                throw DeviceModelError(
                    .invalid, field: decoder.fieldPath + ".type",
                    "\(decoder.fieldPath).type: \(name) is not string, int, double, bool, date, url, array, object, optional or json"
                )
            }
            base = scalar
        }
        if try container.decodeIfPresent(Bool.self, forKey: .optional) == true { base = .optional(base) }
        self = base
    }

    /// The element or wrapped type, under `items`, `of` or `wrapped`.
    private static func element(_ container: KeyedDecodingContainer<Keys>) throws -> ActivityFieldType? {
        try container.decodeIfPresent(ActivityFieldType.self, forKey: .items)
            ?? container.decodeIfPresent(ActivityFieldType.self, forKey: .of)
            ?? container.decodeIfPresent(ActivityFieldType.self, forKey: .wrapped)
    }

    public func encode(to encoder: any Encoder) throws {
        if let notation = self.notation {
            var container = encoder.singleValueContainer()
            try container.encode(notation)
            return
        }
        var container = encoder.container(keyedBy: Keys.self)
        switch self.unwrapped {
        case .object(let fields):
            try container.encode("object", forKey: .type)
            try container.encode(ActivityFields(fields), forKey: .fields)
        case .array(let element):
            try container.encode("array", forKey: .type)
            try container.encode(element, forKey: .items)
        case let scalar:
            try container.encode(scalar.notation ?? "string", forKey: .type)
        }
        if self.isOptional { try container.encode(true, forKey: .optional) }
    }
}

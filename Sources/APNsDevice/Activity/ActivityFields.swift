import APNsCore

/// The fields of a struct as a document writes them: `{"name": <type>, ...}`, kept in name order
/// (a JSON object has no order of its own; JSONDecoder reports the first failing field in this order).
public struct ActivityFields: Codable, Hashable, Sendable {
    public var fields: [ActivityField]

    public init(_ fields: [ActivityField]) { self.fields = fields }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: AnyCodingKey.self)
        var fields: [ActivityField] = []
        for key in container.allKeys.sorted(by: { $0.stringValue < $1.stringValue }) {
            guard !key.stringValue.isEmpty else {
                throw DeviceModelError(.invalid, field: decoder.fieldPath, "\(decoder.fieldPath): a field needs a name")
            }
            fields.append(ActivityField(key.stringValue, try container.decode(ActivityFieldType.self, forKey: key)))
        }
        self.fields = fields
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: AnyCodingKey.self)
        for field in self.fields { try container.encode(field.type, forKey: AnyCodingKey(stringValue: field.name)) }
    }
}

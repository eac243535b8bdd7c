/// Any key of a JSON object, to see every field a document has.
struct AnyKey: CodingKey {
    let stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

extension Decoder {
    /// Throws when the object being decoded has a field `Keys` does not name.
    func refuseUnknown<Keys: CodingKey & CaseIterable>(_ keys: Keys.Type, in object: String) throws {
        let container = try self.container(keyedBy: AnyKey.self)
        let known = Set(Keys.allCases.map(\.stringValue))
        guard let unknown = container.allKeys.first(where: { !known.contains($0.stringValue) }) else { return }
        let path = (self.codingPath.map(\.stringValue) + [unknown.stringValue]).joined(separator: ".")
        let names = Keys.allCases.map(\.stringValue).joined(separator: ", ")
        throw DeviceModelError(.invalid, field: path, "\(object) has no field \(unknown.stringValue); use \(names)")
    }

    /// The path of the value being decoded, for messages.
    var fieldPath: String {
        self.codingPath.reduce(into: "") { path, key in
            if let index = key.intValue {
                path += "[\(index)]"
            } else {
                path += path.isEmpty ? key.stringValue : "." + key.stringValue
            }
        }
    }
}

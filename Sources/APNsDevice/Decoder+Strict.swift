import APNsCore

extension Decoder {
    /// Throws when the object being decoded has a field `Keys` does not name, listing those it may have.
    func refuseUnknown<Keys: CodingKey & CaseIterable>(_ keys: Keys.Type, in object: String) throws {
        guard let (unknown, known) = try self.unknownKey(keys) else { return }
        let path = self.fieldPath.isEmpty ? unknown : self.fieldPath + "." + unknown
        throw DeviceModelError(.invalid, field: path, "\(object) has no field \(unknown); use \(known)")
    }

    /// The path of the value being decoded, for messages: `categories[0].actions[1]`.
    var fieldPath: String { self.codingPath.fieldPath }
}

extension [any CodingKey] {
    /// The path as people write it: `categories[0].actions[1]`.
    var fieldPath: String {
        self.reduce(into: "") { path, key in
            if let index = key.intValue {
                path += "[\(index)]"
            } else {
                path += path.isEmpty ? key.stringValue : "." + key.stringValue
            }
        }
    }
}

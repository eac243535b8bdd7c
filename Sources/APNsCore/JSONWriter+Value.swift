extension JSONWriter {
    /// Writes a parsed value back as JSON text, an object's members in name order.
    public mutating func value(_ value: JSONValue) {
        switch value {
        case .object(let members):
            self.object { writer in
                for (name, member) in members.sorted(by: { $0.key < $1.key }) { writer.member(name) { $0.value(member) } }
            }
        case .array(let items): self.array(items) { $0.value($1) }
        case .string(let text): self.string(text)
        case .number(let number): self.number(number)
        case .bool(let flag): self.raw(flag ? "true" : "false")
        case .null: self.raw("null")
        }
    }
}

extension JSONValue {
    /// The value as compact JSON text, object members in name order.
    public var compact: [UInt8] {
        var writer = JSONWriter()
        writer.value(self)
        return writer.bytes
    }

    /// The value as JSON text for people: two spaces of indentation, `"name" : value`, members
    /// in name order (the layout `.apns` files and key-store files have always had).
    public var prettyPrinted: [UInt8] {
        var bytes: [UInt8] = []
        self.writePretty(into: &bytes, indent: 0)
        return bytes
    }

    private func writePretty(into bytes: inout [UInt8], indent: Int) {
        let inner = [UInt8](repeating: 0x20, count: indent + 2)
        switch self {
        case .object(let members) where !members.isEmpty:
            bytes.append(contentsOf: Array("{\n".utf8))
            for (index, (name, member)) in members.sorted(by: { $0.key < $1.key }).enumerated() {
                bytes.append(contentsOf: inner)
                bytes.append(contentsOf: JSONValue.string(name).compact)
                bytes.append(contentsOf: Array(" : ".utf8))
                member.writePretty(into: &bytes, indent: indent + 2)
                bytes.append(contentsOf: Array((index == members.count - 1 ? "\n" : ",\n").utf8))
            }
            bytes.append(contentsOf: [UInt8](repeating: 0x20, count: indent) + Array("}".utf8))
        case .array(let items) where !items.isEmpty:
            bytes.append(contentsOf: Array("[\n".utf8))
            for (index, item) in items.enumerated() {
                bytes.append(contentsOf: inner)
                item.writePretty(into: &bytes, indent: indent + 2)
                bytes.append(contentsOf: Array((index == items.count - 1 ? "\n" : ",\n").utf8))
            }
            bytes.append(contentsOf: [UInt8](repeating: 0x20, count: indent) + Array("]".utf8))
        default:
            bytes.append(contentsOf: self.compact)
        }
    }
}

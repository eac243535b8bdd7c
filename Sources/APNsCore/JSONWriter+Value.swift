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

extension Decoder {
    /// The first field of the object being decoded that `Keys` does not name (nil when there is
    /// none), and the names `Keys` has, for a message; each module throws its own error with them.
    public func unknownKey<Keys: CodingKey & CaseIterable>(_ keys: Keys.Type) throws -> (unknown: String, known: String)? {
        let container = try self.container(keyedBy: AnyCodingKey.self)
        let known = Set(Keys.allCases.map(\.stringValue))
        guard let unknown = container.allKeys.first(where: { !known.contains($0.stringValue) }) else { return nil }
        return (unknown.stringValue, Keys.allCases.map(\.stringValue).joined(separator: ", "))
    }
}

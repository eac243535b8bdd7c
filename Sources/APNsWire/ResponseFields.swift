/// The header fields of one HTTP/2 answer, in order, as the provider API sends them: plain
/// values, with the ones HPACK must not add to its table marked (identifiers, unique per answer,
/// and the emulator's explanations). The connection hands them to libnghttp2 as they are.
public struct ResponseFields: Sendable, Sequence {
    public struct Field: Sendable {
        public var name: String
        public var value: String
        /// False for a field HPACK must not index.
        public var indexable: Bool

        public init(name: String, value: String, indexable: Bool = true) {
            self.name = name
            self.value = value
            self.indexable = indexable
        }
    }

    public private(set) var fields: [Field] = []

    public init() {}

    public init(_ fields: [(String, String)]) {
        self.fields = fields.map { Field(name: $0.0, value: $0.1) }
    }

    public mutating func add(name: String, value: String, indexable: Bool = true) {
        self.fields.append(Field(name: name, value: value, indexable: indexable))
    }

    public mutating func remove(name: String) {
        self.fields.removeAll { $0.name == name }
    }

    public mutating func reserveCapacity(_ count: Int) { self.fields.reserveCapacity(count) }

    /// Every value of `name`, in order.
    public subscript(name: String) -> [String] { self.fields.filter { $0.name == name }.map(\.value) }

    public func first(name: String) -> String? { self.fields.first { $0.name == name }?.value }

    public var count: Int { self.fields.count }

    public func makeIterator() -> IndexingIterator<[Field]> { self.fields.makeIterator() }
}

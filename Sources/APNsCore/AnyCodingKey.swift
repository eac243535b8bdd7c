/// Any key of a JSON object, to see every field a document has.
public struct AnyCodingKey: CodingKey {
    public let stringValue: String
    public var intValue: Int? { nil }

    public init(stringValue: String) { self.stringValue = stringValue }
    public init?(intValue: Int) { nil }
}

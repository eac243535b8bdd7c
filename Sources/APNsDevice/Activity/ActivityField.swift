/// One stored property of a declared struct: its JSON key and its type.
public struct ActivityField: Hashable, Sendable {
    public var name: String
    public var type: ActivityFieldType

    public init(_ name: String, _ type: ActivityFieldType) {
        self.name = name
        self.type = type
    }
}

/// The kind of a module's error: an open set of named `static` members (the shape of
/// swift-nio-http2's `HTTP2ErrorCode`), so a new kind of failure is a new member rather than a
/// breaking change to a public enum. `Domain` is the error type the codes belong to.
public struct ErrorCode<Domain>: Hashable, Sendable, CustomStringConvertible {
    public let name: String

    public init(_ name: String) { self.name = name }

    public var description: String { self.name }
}

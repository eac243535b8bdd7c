/// The one error type of the server module: which part failed (`listener http2`, `tls`,
/// `keys`, …) and what a person needs to know to fix it.
public struct ServerError: Error, CustomStringConvertible {
    public let name: String
    public let message: String

    public init(name: String, message: String) {
        self.name = name
        self.message = message
    }

    public var description: String { "\(self.name): \(self.message)" }
}

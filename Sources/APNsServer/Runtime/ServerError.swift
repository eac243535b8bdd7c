/// The one error type of the server module: what kind of thing failed, which one (a listener, a
/// file, a request parameter), and what a person needs to know to fix it.
///
/// Codes are an open set (`static let` members, the shape of swift-nio-http2's `HTTP2ErrorCode`),
/// so a new kind of failure is a new member rather than a breaking change.
public struct ServerError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What kind of thing failed.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        public let name: String

        public init(_ name: String) { self.name = name }

        /// A listener could not bind its socket.
        public static let listener = Code("listener")
        /// The server certificate, its key or a CA file is missing or unreadable.
        public static let tls = Code("tls")
        /// An admin request named a bad parameter or sent a bad body.
        public static let badRequest = Code("bad request")
        /// The store failed, or answered an operation unexpectedly.
        public static let store = Code("store")
        /// The emulator stopped (or never started) serving.
        public static let stopped = Code("stopped")

        public var description: String { self.name }
    }

    public let code: Code
    /// Which listener, file or parameter it is about.
    public let subject: String
    public let message: String

    public init(_ code: Code, subject: String, _ message: String) {
        self.code = code
        self.subject = subject
        self.message = message
    }

    public var description: String { "\(self.subject): \(self.message)" }
}

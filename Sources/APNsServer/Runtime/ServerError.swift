import APNsCore

/// The one error type of the server module: what kind of thing failed, which one (a listener, a
/// file, a request parameter), and what a person needs to know to fix it.
///
/// Codes are an open set (``ErrorCode`` members),
/// so a new kind of failure is a new member rather than a breaking change.
public struct ServerError: Error, Hashable, Sendable, CustomStringConvertible {
    public typealias Code = ErrorCode<ServerError>

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

extension ErrorCode where Domain == ServerError {
    /// A listener could not bind its socket.
    public static var listener: Self { Self("listener") }
    /// The server certificate, its key or a CA file is missing or unreadable.
    public static var tls: Self { Self("tls") }
    /// The store failed, or answered an operation unexpectedly.
    public static var store: Self { Self("store") }
    /// The emulator stopped (or never started) serving.
    public static var stopped: Self { Self("stopped") }
    /// What a config file asked for was refused.
    public static var badConfiguration: Self { Self("configuration") }
}

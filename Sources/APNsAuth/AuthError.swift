import APNsCore

/// The one error type of provider authentication and development certificates: what kind of
/// thing failed, and what a person needs to know to fix it.
///
/// Codes are an open set (``ErrorCode`` members), so a new kind of failure is a new member, not a
/// breaking change to a public enum.
public struct AuthError: Error, Hashable, Sendable, CustomStringConvertible {
    public typealias Code = ErrorCode<AuthError>

    public let code: Code
    public let message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "\(self.code): \(self.message)" }
}

extension ErrorCode where Domain == AuthError {
    /// A key-store entry or its directory could not be read or written.
    public static var keyStore: Self { Self("keys") }
    /// A `.p8` private key could not be read.
    public static var privateKey: Self { Self("private key") }
    /// A certificate or the CA could not be made, read or written.
    public static var certificates: Self { Self("certs") }
}

/// The one error type of provider authentication and development certificates: what kind of
/// thing failed, and what a person needs to know to fix it.
///
/// Codes are an open set (`static let` members), so a new kind of failure is a new member, not a
/// breaking change to a public enum.
public struct AuthError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What kind of thing failed.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        public let name: String

        public init(_ name: String) { self.name = name }

        /// A key-store entry or its directory could not be read or written.
        public static let keyStore = Code("keys")
        /// A `.p8` private key could not be read.
        public static let privateKey = Code("private key")
        /// A certificate or the CA could not be made, read or written.
        public static let certificates = Code("certs")

        public var description: String { self.name }
    }

    public let code: Code
    public let message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "\(self.code): \(self.message)" }
}

import NIOCore
import NIOHPACK
import NIOHTTP2
import NIOPosix
import NIOSSL

/// What went wrong on the provider client's side, in words.
public struct ProviderClientError: Error, Equatable, CustomStringConvertible {
    public let description: String

    public init(_ description: String) { self.description = description }

    /// No answer came within the time the caller gave.
    public static let timedOut = ProviderClientError("no answer in time")
}

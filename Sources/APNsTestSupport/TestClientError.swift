import APNsCore
import APNsProviderClient
import Foundation
import NIOCore
import NIOHTTP2
import NIOSSL
import Synchronization

public enum TestClientError: Error {
    case timedOut
    case streamClosedWithoutResponse
    /// The server sent something a test did not expect; the message says what.
    case unexpected(String)
}

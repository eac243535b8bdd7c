import NIOCore
import NIOSSL

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// Ends a provider's TCP connection at once, the way a crashed or overloaded server would.
enum ConnectionReset {
    /// Closes `channel` (a TLS connection) with a TCP reset: SO_LINGER 0, then a close that skips
    /// the TLS handler so no close_notify is sent first. On the channel's event loop.
    static func reset(_ channel: any Channel) {
        let close = {
            if let tls = try? channel.pipeline.syncOperations.context(handlerType: NIOSSLHandler.self) {
                tls.close(promise: nil)
            } else {
                channel.close(promise: nil)
            }
        }
        guard let socket = channel as? any SocketOptionProvider else {
            close()
            return
        }
        socket.setSoLinger(linger(l_onoff: 1, l_linger: 0)).assumeIsolated().whenComplete { _ in close() }
    }
}

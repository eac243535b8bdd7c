import APNsAuth
import NIOCore
import NIOSSL
import NIOTLS
import ServiceLifecycle

/// A listener whose connections start with TLS: the HTTP/2 provider API, the binary gateway,
/// the feedback service and the device listener are each one, differing only in what follows TLS.
struct TLSListener: Service {
    let listener: Listener
    let sslContext: NIOSSLContext
    let onBound: @Sendable (SocketAddress) -> Void
    /// Adds the handlers after TLS to a connection's pipeline once its handshake is done, knowing
    /// the client's certificate and ALPN's choice; on its event loop.
    let configure: @Sendable (any Channel, TLSHandshake) throws -> Void
    /// Whether the client's SNI is read before TLS begins (``TLSHandshake/serverName``): the
    /// binary gateway and feedback tell Apple's production host from the sandbox's by it.
    var readsServerName = false

    func run() async throws {
        let sslContext = self.sslContext
        let (configure, logger, handshakeTimeout) = (self.configure, self.listener.logger, self.listener.handshakeTimeout)
        let idleTimeout = self.listener.idleTimeout
        let readsServerName = self.readsServerName
        try await self.listener.run(
            initializeChild: { channel in
                channel.eventLoop.makeCompletedFuture {
                    // Below TLS, so that the clock counts bytes on the wire: a slow handshake is not silence.
                    if let idleTimeout {
                        try channel.pipeline.syncOperations.addHandler(IdleStateHandler(readTimeout: idleTimeout))
                    }
                    let gate = HandshakeGate(logger: logger, timeout: handshakeTimeout, configure: configure)
                    guard readsServerName else {
                        try channel.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: sslContext))
                        return try channel.pipeline.syncOperations.addHandler(gate)
                    }
                    // The ClientHello's SNI first; then TLS takes the bytes it read, before the gate.
                    let sni = ByteToMessageHandler(
                        SNIHandler { result in
                            if case .hostname(let name) = result { gate.serverName = name }
                            return channel.eventLoop.makeCompletedFuture {
                                try channel.pipeline.syncOperations.addHandler(
                                    NIOSSLServerHandler(context: sslContext), position: .before(gate))
                            }
                        })
                    try channel.pipeline.syncOperations.addHandlers([sni, gate])
                }
            },
            onBound: self.onBound
        )
    }
}

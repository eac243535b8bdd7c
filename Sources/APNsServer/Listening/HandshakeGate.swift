import APNsAuth
import Logging
import NIOCore
import NIOSSL
import NIOTLS

/// Holds back the rest of a connection's pipeline until its TLS handshake is done, then builds it
/// knowing the provider's client certificate (what HTTP/2 SETTINGS, the gateway's topic and the
/// feedback list depend on). Runs on the connection's event loop.
final class HandshakeGate: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = NIOAny

    private let configure: (any Channel, ProviderCertificate?) throws -> Void
    private let logger: Logger

    /// - Parameter configure: adds the handlers that follow TLS; throwing closes the connection.
    init(logger: Logger, configure: @escaping (any Channel, ProviderCertificate?) throws -> Void) {
        self.logger = logger
        self.configure = configure
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        switch event {
        case TLSUserEvent.handshakeCompleted:
            do {
                try self.configure(context.channel, Self.peerCertificate(of: context))
                context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
                context.fireUserInboundEventTriggered(event)
            } catch {
                self.logger.info("closed a provider connection", metadata: ["connection.error": "\(error)"])
                context.close(promise: nil)
            }
        case is ChannelShouldQuiesceEvent, is IdleStateHandler.IdleStateEvent:
            // Nothing was said yet: there is nothing to finish.
            context.close(promise: nil)
        default:
            context.fireUserInboundEventTriggered(event)
        }
    }

    /// The certificate the provider presented, if the listener asked for one and it verified.
    private static func peerCertificate(of context: ChannelHandlerContext) -> ProviderCertificate? {
        guard let tls = try? context.pipeline.syncOperations.handler(type: NIOSSLServerHandler.self),
              let certificate = tls.peerCertificate, let der = try? certificate.toDERBytes()
        else { return nil }
        return ProviderCertificate(derEncoded: der)
    }
}

extension TLSListener {
    /// A TLS listener whose pipeline after TLS is built once the handshake is done.
    init(
        listener: Listener,
        sslContext: NIOSSLContext,
        idleTimeout: TimeAmount? = nil,
        onBound: @escaping @Sendable (SocketAddress) -> Void,
        afterHandshake configure: @escaping @Sendable (any Channel, ProviderCertificate?) throws -> Void
    ) {
        let logger = listener.logger
        self.init(listener: listener, sslContext: sslContext, idleTimeout: idleTimeout, onBound: onBound) { channel in
            try channel.pipeline.syncOperations.addHandler(HandshakeGate(logger: logger, configure: configure))
        }
    }
}

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
    /// A connection whose handshake is not done by then is closed: a client that opens TCP and
    /// never starts TLS would otherwise hold its socket forever.
    private let timeout: TimeAmount
    private var deadline: Scheduled<Void>?

    /// - Parameter configure: adds the handlers that follow TLS; throwing closes the connection.
    init(logger: Logger, timeout: TimeAmount, configure: @escaping (any Channel, ProviderCertificate?) throws -> Void) {
        self.logger = logger
        self.timeout = timeout
        self.configure = configure
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.deadline = context.eventLoop.assumeIsolated().scheduleTask(in: self.timeout) {
            self.logger.debug("TLS handshake timed out", metadata: ["connection.peer": "\(context.channel.remoteAddress.map { "\($0)" } ?? "?")"])
            context.close(promise: nil)
        }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        self.deadline?.cancel()
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        switch event {
        case TLSUserEvent.handshakeCompleted:
            self.deadline?.cancel()
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

import APNsAuth
import Logging
import NIOCore
import NIOSSL
import NIOTLS

/// Holds back the rest of a connection's pipeline until its TLS handshake is done, then builds it
/// knowing the provider's client certificate (what HTTP/2 SETTINGS, the gateway's topic and the
/// feedback list depend on) and the protocol ALPN settled on. Runs on the connection's event loop.
final class HandshakeGate: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = NIOAny

    private let configure: (any Channel, TLSHandshake) throws -> Void
    private let logger: Logger
    /// A connection whose handshake is not done by then is closed: a client that opens TCP and
    /// never starts TLS would otherwise hold its socket forever.
    private let timeout: TimeAmount
    private var deadline: Scheduled<Void>?
    /// The host name the client's SNI asked for, once read (``TLSListener/readsServerName``).
    var serverName: String?

    /// - Parameter configure: adds the handlers that follow TLS; throwing closes the connection.
    init(logger: Logger, timeout: TimeAmount, configure: @escaping (any Channel, TLSHandshake) throws -> Void) {
        self.logger = logger
        self.timeout = timeout
        self.configure = configure
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.deadline = context.eventLoop.assumeIsolated().scheduleTask(in: self.timeout) {
            self.logger.info("TLS handshake timed out: the client never finished it", metadata: Self.metadata(context))
            context.close(promise: nil)
        }
    }

    /// A failure before the handshake finished is the handshake's: logged with its cause (the
    /// certificate that did not verify, the protocol it did not speak), for whoever wonders why
    /// their client cannot connect.
    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        var metadata = Self.metadata(context)
        metadata["tls.error"] = "\(error)"
        self.logger.info("TLS handshake failed: \(Self.cause(of: error))", metadata: metadata)
        context.fireErrorCaught(error)
    }

    private static func metadata(_ context: ChannelHandlerContext) -> Logger.Metadata {
        [
            "connection.peer": "\(context.channel.remoteAddress.map { "\($0)" } ?? "?")",
            "connection.port": "\(context.channel.localAddress?.port.map(String.init) ?? "?")",
        ]
    }

    /// The reason in words, from BoringSSL's error names where it gave some.
    static func cause(of error: any Error) -> String {
        let text = "\(error)"
        let causes: [(String, String)] = [
            (
                "CERTIFICATE_VERIFY_FAILED",
                "the client certificate did not verify (not signed by a trusted CA, expired, or not for client authentication)"
            ),
            ("certificate has expired", "the client certificate has expired"),
            ("PEER_DID_NOT_RETURN_A_CERTIFICATE", "the client presented no certificate, and this listener requires one"),
            ("WRONG_VERSION_NUMBER", "the client does not speak TLS (plain HTTP, or another protocol)"),
            ("HTTP_REQUEST", "the client sent plain HTTP to a TLS port"),
            ("NO_SHARED_CIPHER", "no cipher both sides accept"),
            ("UNSUPPORTED_PROTOCOL", "the client's TLS version is too old (TLS 1.2 or newer)"),
            ("TLSV1_ALERT_UNKNOWN_CA", "the client does not trust the emulator's certificate (give it certs/ca.pem)"),
            ("SSLV3_ALERT_BAD_CERTIFICATE", "the client rejected the emulator's certificate (give it certs/ca.pem)"),
            // What a TLS 1.3 client that gives up on the server's certificate leaves behind.
            (
                "DECRYPTION_FAILED_OR_BAD_RECORD_MAC",
                "the client broke the handshake off, most often because it does not trust the emulator's certificate (give it certs/ca.pem)"
            ),
            (
                "uncleanShutdown",
                "the client closed the connection during the handshake, most often because it does not trust the emulator's certificate (give it certs/ca.pem)"
            ),
        ]
        return causes.first { text.contains($0.0) }?.1 ?? text
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        self.deadline?.cancel()
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        switch event {
        case TLSUserEvent.handshakeCompleted(let negotiatedProtocol):
            self.deadline?.cancel()
            do {
                let handshake = TLSHandshake(
                    certificate: Self.peerCertificate(of: context), negotiatedProtocol: negotiatedProtocol,
                    serverName: self.serverName)
                try self.configure(context.channel, handshake)
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

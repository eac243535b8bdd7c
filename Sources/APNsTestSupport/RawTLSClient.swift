import NIOCore
import NIOPosix
import NIOSSL

#if canImport(Glibc)
import Glibc
#endif

/// Sends raw bytes over TLS and collects everything the server sends until it closes the
/// connection: for protocol-violation tests that a well-behaved client cannot express.
public enum RawTLSClient {
    /// Returns the bytes received, or throws `TestClientError.timedOut` if the server has not
    /// closed the connection within `timeout`.
    public static func exchange(
        host: String,
        port: Int,
        caPath: String,
        identity: ClientIdentity? = nil,
        serverName: String? = nil,
        sending bytes: [UInt8],
        timeout: TimeAmount = .seconds(10)
    ) async throws -> [UInt8] {
        try await self.session(
            host: host, port: port, caPath: caPath, identity: identity, serverName: serverName, sending: bytes, timeout: timeout
        ).received
    }

    /// What the server did: the bytes it sent before the connection ended, and whether it ended
    /// with a TCP reset (ECONNRESET) rather than an orderly close.
    public struct Session: Sendable {
        public var received: [UInt8]
        public var resetByPeer: Bool
        /// The error that ended it besides a reset (a TLS alert the server sent, such as
        /// `CERTIFICATE_REQUIRED`), in words; nil for an orderly close.
        public var error: String? = nil
    }

    /// Like ``exchange(host:port:caPath:identity:sending:timeout:)``, also telling how the connection ended.
    public static func session(
        host: String,
        port: Int,
        caPath: String,
        identity: ClientIdentity? = nil,
        serverName: String? = nil,
        sending bytes: [UInt8],
        timeout: TimeAmount = .seconds(10)
    ) async throws -> Session {
        let connection = try await self.open(
            host: host, port: port, caPath: caPath, identity: identity, serverName: serverName, sending: bytes)
        let timer = connection.channel.eventLoop.scheduleTask(in: timeout) { connection.promise.fail(TestClientError.timedOut) }
        defer { timer.cancel() }
        return try await connection.promise.futureResult.get()
    }

    /// A connection that has sent its bytes; what the server sends is collected until it closes.
    public struct Connection: Sendable {
        let channel: any Channel
        let promise: EventLoopPromise<Session>

        /// Waits until the connection has ended (for a test that makes the server end it); the bytes
        /// the server sent before.
        public func closed() async throws -> [UInt8] {
            try await self.promise.futureResult.get().received
        }
    }

    /// Connects, sends `bytes` and returns at once; ``Connection/closed()`` waits for the end.
    /// `serverName`: the SNI to send (Apple's host, as a provider that resolves it to the
    /// emulator sends it; the certificate is then checked against the CA only), else `localhost`.
    public static func open(
        host: String, port: Int, caPath: String, identity: ClientIdentity? = nil, serverName: String? = nil,
        sending bytes: [UInt8]
    ) async throws -> Connection {
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.trustRoots = .certificates(try NIOSSLCertificate.fromPEMFile(caPath))
        if serverName != nil { tls.certificateVerification = .noHostnameVerification }
        try identity?.apply(to: &tls)
        let sslContext = try NIOSSLContext(configuration: tls)
        let group = MultiThreadedEventLoopGroup.singleton
        let promise = group.any().makePromise(of: Session.self)
        let channel: any Channel
        do {
            channel = try await ClientBootstrap(group: group)
                .channelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.addHandler(
                            NIOSSLClientHandler(context: sslContext, serverHostname: serverName ?? "localhost"))
                        try channel.pipeline.syncOperations.addHandler(Collector(promise: promise))
                    }
                }
                .connect(host: host, port: port)
                .get()
        } catch {
            // No collector will ever complete the promise.
            promise.fail(error)
            throw error
        }
        // If the server closes before the write completes, the collector still completes the promise.
        channel.writeAndFlush(ByteBuffer(bytes: bytes), promise: nil)
        return Connection(channel: channel, promise: promise)
    }

    final class Collector: ChannelInboundHandler {
        typealias InboundIn = ByteBuffer
        private let promise: EventLoopPromise<Session>
        private var session = Session(received: [], resetByPeer: false)

        init(promise: EventLoopPromise<Session>) { self.promise = promise }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            self.session.received += self.unwrapInboundIn(data).readableBytesView
        }

        func channelInactive(context: ChannelHandlerContext) {
            self.promise.succeed(self.session)
        }

        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            if error.isConnectionReset {
                self.session.resetByPeer = true
            } else if self.session.error == nil {
                self.session.error = String(describing: error)
            }
            // An unclean TLS shutdown after the server's last bytes still counts as closed.
            context.close(promise: nil)
        }
    }
}

extension Error {
    /// Whether this is the peer resetting the TCP connection (ECONNRESET).
    var isConnectionReset: Bool {
        guard let error = self as? IOError else { return false }
        return error.errnoCode == ECONNRESET
    }
}

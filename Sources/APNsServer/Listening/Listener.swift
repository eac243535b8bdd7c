import Logging
import NIOCore
import NIOExtras
import NIOPosix
import ServiceLifecycle

/// The life of one listening socket, shared by every listener: bind, say where, serve until
/// graceful shutdown, then stop accepting, ask each connection to quiesce (HTTP/2 GOAWAY,
/// HTTP/1 close after the response) and return once all of them have closed.
struct Listener: Sendable {
    let name: String
    let host: String
    let port: Int
    let group: any EventLoopGroup
    let logger: Logger
    /// How long a TLS listener's connection may take to finish its handshake.
    var handshakeTimeout = TimeAmount.seconds(10)
    /// A TLS listener's connection that receives nothing for this long is told so
    /// (`IdleStateEvent.read`): HTTP/2 answers GOAWAY IdleTimeout, the others close.
    var idleTimeout: TimeAmount?

    /// Serves until graceful shutdown. `initializeChild` sets up each accepted connection;
    /// `onBound` learns the bound address (port 0 resolved).
    func run(
        initializeChild: @escaping @Sendable (any Channel) -> EventLoopFuture<Void>,
        onBound: @escaping @Sendable (SocketAddress) -> Void
    ) async throws {
        let quiesce = ServerQuiescingHelper(group: self.group)
        let bootstrap = ServerBootstrap(group: self.group)
            .serverChannelOption(.backlog, value: 1024)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .serverChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(quiesce.makeServerChannelHandler(channel: channel))
                }
            }
            .childChannelOption(.tcpOption(.tcp_nodelay), value: 1)
            .childChannelOption(.maxMessagesPerRead, value: 16)
            .childChannelInitializer(initializeChild)
        let channel: any Channel
        do {
            channel = try await bootstrap.bind(host: self.host, port: self.port).get()
        } catch let error as IOError where error.errnoCode == EADDRINUSE {
            throw ServerError(
                .listener, subject: "\(self.name) listener",
                "cannot listen on \(self.host):\(self.port): the port is in use (another apns-emulator?); choose another with \(Self.flag(of: self.name)), or 0 for a free one"
            )
        } catch {
            throw ServerError(.listener, subject: "\(self.name) listener", "cannot listen on \(self.host):\(self.port): \(error)")
        }
        guard let address = channel.localAddress else {
            throw ServerError(.listener, subject: "\(self.name) listener", "bound without a local address")
        }
        // At debug: serve prints each listener's line once all are bound.
        self.logger.debug("listening", metadata: ["listener": "\(self.name)", "listener.address": "\(address)"])
        onBound(address)

        let drained = self.group.any().makePromise(of: Void.self)
        try await withGracefulShutdownHandler {
            try await channel.closeFuture.get()
        } onGracefulShutdown: {
            quiesce.initiateShutdown(promise: drained)
        }
        // The server channel closes first; wait for its connections to finish their work.
        try await drained.futureResult.get()
        self.logger.debug("stopped", metadata: ["listener": "\(self.name)"])
    }

    /// The `serve` option that sets a listener's port, by the listener's name.
    static func flag(of name: String) -> String {
        switch name {
        case "webpush": "--web-push-port"
        case "channels": "--channels-port"
        default: "--\(name)-port"
        }
    }
}

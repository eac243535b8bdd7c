import APNsCore
import Logging
import NIOCore
import NIOHTTP2
import NIOSSL
import ServiceLifecycle

/// The HTTP/2 provider API (`POST /3/device/<token>`) over TLS with ALPN h2.
public final class HTTP2ProviderListener: Service {
    /// SETTINGS as real APNs servers advertise them.
    static let settings: HTTP2Settings = [
        HTTP2Setting(parameter: .maxConcurrentStreams, value: 1000),
        HTTP2Setting(parameter: .headerTableSize, value: 4096),
        HTTP2Setting(parameter: .initialWindowSize, value: 65_535),
        HTTP2Setting(parameter: .maxFrameSize, value: 16_384),
        HTTP2Setting(parameter: .maxHeaderListSize, value: 8000),
    ]
    /// The connection window: room for 1000 streams of a full 5 KiB payload plus framing, so that
    /// a provider using every stream never waits for a WINDOW_UPDATE.
    static let connectionWindow = 8 << 20

    private let listener: Listener
    private let sslContext: NIOSSLContext
    private let context: ProviderContext
    private let onBound: @Sendable (SocketAddress) -> Void

    init(
        listener: Listener,
        sslContext: NIOSSLContext,
        context: ProviderContext,
        onBound: @escaping @Sendable (SocketAddress) -> Void
    ) {
        self.listener = listener
        self.sslContext = sslContext
        self.context = context
        self.onBound = onBound
    }

    public func run() async throws {
        let sslContext = self.sslContext
        let context = self.context
        try await self.listener.run(
            initializeChild: { channel in
                channel.eventLoop.makeCompletedFuture {
                    try Self.configure(channel: channel, sslContext: sslContext, context: context)
                }
            },
            onBound: self.onBound
        )
    }

    /// Builds a provider connection's pipeline: TLS, HTTP/2, the connection handler, and one
    /// ``ProviderStreamHandler`` per stream. On the channel's event loop.
    static func configure(channel: any Channel, sslContext: NIOSSLContext, context: ProviderContext) throws {
        let pipeline = channel.pipeline.syncOperations
        try pipeline.addHandler(NIOSSLServerHandler(context: sslContext))
        try pipeline.addHandler(FlushCoalescingHandler())
        let connectionState = NIOLoopBound(ProviderConnectionState(), eventLoop: channel.eventLoop)
        var connection = NIOHTTP2Handler.ConnectionConfiguration()
        connection.initialSettings = Self.settings
        var stream = NIOHTTP2Handler.StreamConfiguration()
        stream.targetWindowSize = Self.connectionWindow
        let connectionHandler = ProviderConnectionHandler(connectionWindow: Self.connectionWindow, shutdownGrace: context.shutdownGrace)
        _ = try pipeline.configureHTTP2Pipeline(
            mode: .server,
            connectionConfiguration: connection,
            streamConfiguration: stream,
            streamDelegate: StreamTracker(handler: NIOLoopBound(connectionHandler, eventLoop: channel.eventLoop))
        ) { streamChannel in
            streamChannel.eventLoop.makeCompletedFuture {
                try streamChannel.pipeline.syncOperations.addHandler(ProviderStreamHandler(context: context, connection: connectionState))
            }
        }
        try pipeline.addHandler(connectionHandler)
    }
}

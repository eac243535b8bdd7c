import APNsAuth
import APNsCore
import NIOCore
import NIOHTTP2
import NIOSSL

/// The HTTP/2 provider API (`POST /3/device/<token>`) over TLS with ALPN h2.
enum HTTP2ProviderListener {
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

    /// Builds a provider connection's pipeline once TLS is up: HTTP/2, the connection handler,
    /// and one ``ProviderStreamHandler`` per stream. On the channel's event loop.
    ///
    /// In strict mode a connection without a client certificate starts with one stream, as APNs
    /// allows a token-based connection until a request has authenticated.
    static func configure(channel: any Channel, certificate: ProviderCertificate?, context: ProviderContext) throws {
        let pipeline = channel.pipeline.syncOperations
        try pipeline.addHandler(FlushCoalescingHandler())
        let auth = context.auth == .strict ? ProviderAuthStateMachine(rules: context.authRules, certificate: certificate) : nil
        let connectionState = ProviderConnectionState(auth: auth)
        var connection = NIOHTTP2Handler.ConnectionConfiguration()
        connection.initialSettings = Self.settings
        if auth?.streamsLimited == true {
            connection.initialSettings = Self.settings.map {
                $0.parameter == .maxConcurrentStreams ? HTTP2Setting(parameter: .maxConcurrentStreams, value: 1) : $0
            }
        }
        var stream = NIOHTTP2Handler.StreamConfiguration()
        stream.targetWindowSize = Self.connectionWindow
        let connectionHandler = ProviderConnectionHandler(connectionWindow: Self.connectionWindow, shutdownGrace: context.shutdownGrace)
        let loopBoundHandler = NIOLoopBound(connectionHandler, eventLoop: channel.eventLoop)
        // Only the stream limit changes; the rest of the SETTINGS stand as first sent.
        let unlocked: HTTP2Settings = Self.settings.filter { $0.parameter == .maxConcurrentStreams }
        connectionState.unlockStreams = { loopBoundHandler.value.announce(unlocked) }
        let loopBoundState = NIOLoopBound(connectionState, eventLoop: channel.eventLoop)
        _ = try pipeline.configureHTTP2Pipeline(
            mode: .server,
            connectionConfiguration: connection,
            streamConfiguration: stream,
            streamDelegate: StreamTracker(handler: loopBoundHandler)
        ) { streamChannel in
            streamChannel.eventLoop.makeCompletedFuture {
                try streamChannel.pipeline.syncOperations.addHandler(ProviderStreamHandler(context: context, connection: loopBoundState))
            }
        }
        try pipeline.addHandler(connectionHandler)
    }
}

extension TLSListener {
    /// The HTTP/2 provider API; `sslContext` must offer ALPN h2.
    static func http2Provider(
        _ listener: Listener,
        sslContext: NIOSSLContext,
        context: ProviderContext,
        onBound: @escaping @Sendable (SocketAddress) -> Void
    ) -> TLSListener {
        TLSListener(listener: listener, sslContext: sslContext, onBound: onBound) { channel, certificate in
            try HTTP2ProviderListener.configure(channel: channel, certificate: certificate, context: context)
            context.inspection.metrics.providerConnection(.http2, 1)
            channel.closeFuture.whenComplete { _ in context.inspection.metrics.providerConnection(.http2, -1) }
        }
    }
}

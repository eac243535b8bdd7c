import APNsAuth
import APNsCore
import APNsWire
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
    /// The header list size a request may have (`settings` advertises it); larger ones get 431.
    static let headerListSize = 8000
    /// The header list size that fails the connection: NIOHTTP2 enforces the configured value as
    /// a connection error, so it is configured with this and ``HTTP2WireAdjuster`` advertises 8000.
    static let hardHeaderListSize = 16_384
    /// The connection window: room for 1000 streams of a full 5 KiB payload plus framing, so that
    /// a provider using every stream never waits for a WINDOW_UPDATE.
    static let connectionWindow = 8 << 20

    /// Builds a provider connection's pipeline once TLS is up: HTTP/2, the connection handler,
    /// and ``ProviderStreamsHandler`` for the streams. On the channel's event loop.
    ///
    /// In strict mode a connection without a client certificate starts with one stream, as APNs
    /// allows a token-based connection until a request has authenticated.
    static func configure(channel: any Channel, certificate: ProviderCertificate?, context: ProviderContext) throws {
        let pipeline = channel.pipeline.syncOperations
        try pipeline.addHandler(FlushCoalescingHandler())
        try pipeline.addHandler(DetachReadsHandler())
        let auth = context.auth == .strict ? ProviderAuthStateMachine(rules: context.authRules, certificate: certificate) : nil
        let connectionState = ProviderConnectionState(auth: auth)
        var connection = NIOHTTP2Handler.ConnectionConfiguration()
        connection.initialSettings = Self.settings.map {
            switch $0.parameter {
            case .maxHeaderListSize: HTTP2Setting(parameter: .maxHeaderListSize, value: Self.hardHeaderListSize)
            case .maxConcurrentStreams where auth?.streamsLimited == true: HTTP2Setting(parameter: .maxConcurrentStreams, value: 1)
            default: $0
            }
        }
        let connectionHandler = ProviderConnectionHandler(connectionWindow: Self.connectionWindow, shutdownGrace: context.shutdownGrace)
        let loopBoundHandler = NIOLoopBound(connectionHandler, eventLoop: channel.eventLoop)
        let adjuster = HTTP2FrameAdjuster(
            headerListSize: UInt32(Self.headerListSize),
            lastStreamID: { loopBoundHandler.value.lastStreamID },
            resetCode: { loopBoundHandler.value.resetCode(stream: $0, $1) }
        )
        try pipeline.addHandler(HTTP2WireAdjuster(adjuster) { loopBoundHandler.value.connectionErrorSent(written: $0) })
        // Only the stream limit changes; the rest of the SETTINGS stand as first sent.
        let unlocked: HTTP2Settings = Self.settings.filter { $0.parameter == .maxConcurrentStreams }
        connectionState.unlockStreams = { loopBoundHandler.value.announce(unlocked) }
        connectionState.requestEnded = { loopBoundHandler.value.requestEnded($0) }
        // No stream multiplexer: a channel per stream cost more than the rest of a request's work.
        try pipeline.addHandler(NIOHTTP2Handler(mode: .server, frameDelegate: nil, connectionConfiguration: connection))
        try pipeline.addHandler(connectionHandler)
        try pipeline.addHandler(
            ProviderStreamsHandler(context: context, connection: connectionState, connectionHandler: connectionHandler, eventLoop: channel.eventLoop)
        )
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

import APNsAuth
import APNsCore
import APNsWire
import CNGHTTP2
import NIOCore
import NIOSSL

/// The HTTP/2 provider API (`POST /3/device/<token>`) over TLS with ALPN h2, on libnghttp2.
enum HTTP2ProviderListener {
    /// SETTINGS as real APNs servers advertise them.
    static let settings: [(id: Int32, value: UInt32)] = [
        (Int32(NGHTTP2_SETTINGS_MAX_CONCURRENT_STREAMS.rawValue), 1000),
        (Int32(NGHTTP2_SETTINGS_HEADER_TABLE_SIZE.rawValue), 4096),
        (Int32(NGHTTP2_SETTINGS_INITIAL_WINDOW_SIZE.rawValue), 65_535),
        (Int32(NGHTTP2_SETTINGS_MAX_FRAME_SIZE.rawValue), 16_384),
        (Int32(NGHTTP2_SETTINGS_MAX_HEADER_LIST_SIZE.rawValue), UInt32(headerListSize)),
    ]
    /// The header list size a request may have (`settings` advertises it); larger ones get 431.
    static let headerListSize = 8000
    /// The connection window: room for 1000 streams of a full 5 KiB payload plus framing, so that
    /// a provider using every stream never waits for a WINDOW_UPDATE.
    static let connectionWindow = 8 << 20

    /// Builds a provider connection's pipeline once TLS is up: HTTP/2 and the connection's
    /// policy in ``ProviderConnectionHandler``, then ``ProviderStreamsHandler`` for the streams.
    /// On the channel's event loop.
    ///
    /// In strict mode a connection without a client certificate starts with one stream, as APNs
    /// allows a token-based connection until a request has authenticated.
    static func configure(channel: any Channel, certificate: ProviderCertificate?, context: ProviderContext) throws {
        let pipeline = channel.pipeline.syncOperations
        let connectionState = context.connectionState(certificate: certificate, port: channel.localAddress?.port)
        connectionState.observer = ProviderObserver(
            ledger: context.inspection.providers, peer: channel.remoteAddress?.ipAddress ?? "unknown",
            subject: certificate?.topics.first, clock: context.realClock)
        let streamLimit = Int32(NGHTTP2_SETTINGS_MAX_CONCURRENT_STREAMS.rawValue)
        let settings = Self.settings.map { $0.id == streamLimit && connectionState.streamsLimited ? (streamLimit, 1) : $0 }
        let connectionHandler = ProviderConnectionHandler(
            settings: settings, connectionWindow: Self.connectionWindow, shutdownGrace: context.shutdownGrace
        )
        let loopBoundHandler = NIOLoopBound(connectionHandler, eventLoop: channel.eventLoop)
        // Only the stream limit changes; the rest of the SETTINGS stand as first sent.
        let unlocked = Self.settings.filter { $0.id == streamLimit }
        connectionState.unlockStreams = { loopBoundHandler.value.announce(unlocked) }
        let streams = ProviderStreamsHandler(
            context: context, connection: connectionState, sink: connectionHandler, eventLoop: channel.eventLoop)
        connectionHandler.streams = streams
        connectionHandler.onBadPreface = { channel, bytes in
            let refusal = ConnectionRefusal(inspection: context.inspection, clock: context.clock, logger: context.logger)
            refusal.record(channel, source: .http2, detail: context.doors.notHTTP2(bytes, port: channel.localAddress?.port))
        }
        try pipeline.addHandler(connectionHandler)
        try pipeline.addHandler(streams)
    }
}

extension HTTP2ProviderListener {
    /// Channel management on a connection that asked for HTTP/2 by ALPN on a port that serves
    /// it beside another protocol (the binary gateway's and feedback's, as Apple's hosts do).
    /// `context` serves channel routes only. On the channel's event loop.
    static func channelManagement(channel: any Channel, handshake: TLSHandshake, context: ProviderContext) throws {
        try self.configure(channel: channel, certificate: handshake.certificate, context: context)
        context.inspection.metrics.providerConnection(.http2, 1)
        channel.closeFuture.whenComplete { _ in context.inspection.metrics.providerConnection(.http2, -1) }
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
        TLSListener(listener: listener, sslContext: sslContext, onBound: onBound) { channel, handshake in
            try HTTP2ProviderListener.configure(channel: channel, certificate: handshake.certificate, context: context)
            context.inspection.metrics.providerConnection(.http2, 1)
            channel.closeFuture.whenComplete { _ in context.inspection.metrics.providerConnection(.http2, -1) }
        }
    }
}

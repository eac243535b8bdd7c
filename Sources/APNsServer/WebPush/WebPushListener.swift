import NIOCore
import NIOHTTP1
import NIOHTTP2
import NIOSSL

/// The Web Push service's listener: HTTPS with HTTP/2 or HTTP/1.1 by ALPN, as Apple's
/// web.push.apple.com serves both. swift-nio-http2 here rather than libnghttp2: this door is not
/// the provider API's hot path, and its requests share one HTTP/1 handler through its codec.
///
/// An HTTP/2 connection ends as the provider API's do (``WebPushConnectionCloser``).
enum WebPushListener {
    static func make(
        _ listener: Listener, sslContext: NIOSSLContext, intake: PushIntake, shutdownGrace: TimeAmount,
        onBound: @escaping @Sendable (SocketAddress) -> Void
    ) -> TLSListener {
        TLSListener(listener: listener, sslContext: sslContext, onBound: onBound) { channel, handshake in
            let port = channel.localAddress?.port
            let metrics = intake.inspection.metrics
            metrics.providerConnection(.webPush, 1)
            channel.closeFuture.whenComplete { _ in metrics.providerConnection(.webPush, -1) }
            let sync = channel.pipeline.syncOperations
            if handshake.isHTTP2 {
                let closer = WebPushConnectionCloser(grace: shutdownGrace)
                _ = try sync.configureHTTP2Pipeline(
                    mode: .server, connectionConfiguration: .init(), streamConfiguration: .init(),
                    streamDelegate: closer.delegate(on: channel.eventLoop)
                ) { stream in
                    stream.eventLoop.makeCompletedFuture {
                        try stream.pipeline.syncOperations.addHandlers(
                            HTTP2FramePayloadToHTTP1ServerCodec(), WebPushHTTPHandler(intake: intake, port: port))
                    }
                }
                try sync.addHandler(closer)
            } else {
                try sync.configureHTTPServerPipeline(withErrorHandling: true)
                try sync.addHandler(WebPushHTTPHandler(intake: intake, port: port))
            }
        }
    }
}

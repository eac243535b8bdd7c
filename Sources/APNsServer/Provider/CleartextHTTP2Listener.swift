import NIOCore
import ServiceLifecycle

/// The provider API over cleartext HTTP/2 (`--h2c-port`): prior knowledge, the client's first
/// bytes are HTTP/2's connection preface (RFC 9113 §3.3), no TLS and so no client certificate.
/// Everything after the bytes is the TLS port's: the same connection handler, intake and
/// validation, and under `--auth strict` a provider token in `authorization` on every connection.
struct CleartextHTTP2Listener: Service {
    let listener: Listener
    let context: ProviderContext
    let onBound: @Sendable (SocketAddress) -> Void

    func run() async throws {
        let (context, idleTimeout) = (self.context, self.listener.idleTimeout)
        try await self.listener.run(
            initializeChild: { channel in
                channel.eventLoop.makeCompletedFuture {
                    if let idleTimeout {
                        try channel.pipeline.syncOperations.addHandler(IdleStateHandler(readTimeout: idleTimeout))
                    }
                    try HTTP2ProviderListener.configure(channel: channel, certificate: nil, context: context)
                    context.inspection.metrics.providerConnection(.http2, 1)
                    channel.closeFuture.whenComplete { _ in context.inspection.metrics.providerConnection(.http2, -1) }
                }
            },
            onBound: self.onBound
        )
    }
}

import Logging
import NIOCore
import NIOHTTP1
import ServiceLifecycle

/// The admin API: plain HTTP/1.1 and JSON, for people and tests.
public final class AdminListener: Service {
    private let listener: Listener
    private let router: AdminRouter
    private let onBound: @Sendable (SocketAddress) -> Void

    init(listener: Listener, router: AdminRouter, onBound: @escaping @Sendable (SocketAddress) -> Void) {
        self.listener = listener
        self.router = router
        self.onBound = onBound
    }

    public func run() async throws {
        let router = self.router
        try await self.listener.run(
            initializeChild: { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline(withErrorHandling: true)
                    try channel.pipeline.syncOperations.addHandler(AdminHTTPHandler(router: router))
                }
            },
            onBound: self.onBound
        )
    }
}

/// Reads one HTTP/1.1 request at a time and answers it through the router; on the channel's loop.
final class AdminHTTPHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    /// Admin request bodies are small JSON documents.
    static let maximumBody = 64 << 10

    private let router: AdminRouter
    private var head: HTTPRequestHead?
    private var body: [UInt8] = []

    init(router: AdminRouter) {
        self.router = router
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch self.unwrapInboundIn(data) {
        case .head(let head):
            self.head = head
            self.body = []
        case .body(let buffer):
            if self.body.count + buffer.readableBytes <= Self.maximumBody { self.body += buffer.readableBytesView }
        case .end:
            guard let head = self.head else { return }
            self.head = nil
            self.router.respond(method: head.method.rawValue, uri: head.uri, body: self.body, on: context.eventLoop)
                .assumeIsolated().whenSuccess { response in self.write(response, version: head.version, context: context) }
        }
    }

    private func write(_ response: AdminRouter.Response, version: HTTPVersion, context: ChannelHandlerContext) {
        var headers = HTTPHeaders()
        headers.add(name: "content-type", value: response.contentType)
        headers.add(name: "content-length", value: String(response.body.count))
        let status = HTTPResponseStatus(statusCode: response.status)
        context.write(self.wrapOutboundOut(.head(.init(version: version, status: status, headers: headers))), promise: nil)
        var buffer = context.channel.allocator.buffer(capacity: response.body.count)
        buffer.writeBytes(response.body)
        context.write(self.wrapOutboundOut(.body(.byteBuffer(buffer))), promise: nil)
        context.writeAndFlush(self.wrapOutboundOut(.end(nil)), promise: nil)
    }
}

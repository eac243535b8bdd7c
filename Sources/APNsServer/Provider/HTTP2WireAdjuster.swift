import APNsWire
import NIOCore

/// Runs ``HTTP2FrameAdjuster`` over what `NIOHTTP2Handler` writes, and tells the connection once
/// of a connection error's GOAWAY, with the future of its write. Sits between TLS and HTTP/2;
/// on the connection's event loop.
final class HTTP2WireAdjuster: ChannelOutboundHandler {
    typealias OutboundIn = IOData
    typealias OutboundOut = IOData

    private var adjuster: HTTP2FrameAdjuster
    private let connectionError: (EventLoopFuture<Void>) -> Void
    private var errorReported = false

    init(_ adjuster: HTTP2FrameAdjuster, connectionError: @escaping (EventLoopFuture<Void>) -> Void) {
        self.adjuster = adjuster
        self.connectionError = connectionError
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        guard case .byteBuffer(var buffer) = self.unwrapOutboundIn(data) else {
            if case .fileRegion(let region) = self.unwrapOutboundIn(data) { self.adjuster.skip(region.readableBytes) }
            return context.write(data, promise: promise)
        }
        guard self.adjuster.adjust(&buffer), !self.errorReported else {
            return context.write(self.wrapOutboundOut(.byteBuffer(buffer)), promise: promise)
        }
        self.errorReported = true
        let written = promise ?? context.eventLoop.makePromise()
        context.write(self.wrapOutboundOut(.byteBuffer(buffer)), promise: written)
        self.connectionError(written.futureResult)
    }
}

import NIOCore

/// Hands on each read in a buffer of its own size, so the next handler never holds the TLS
/// handler's read buffer.
///
/// NIOSSL decrypts into one 32 KiB buffer per connection and passes a view of it on; NIOHTTP2
/// keeps that view between reads (its frame decoder's input), so NIOSSL's next read finds the
/// buffer shared and copies it: a second 32 KiB buffer for every idle connection. Copying the
/// few bytes of a read instead keeps one. On the connection's event loop.
final class DetachReadsHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let buffer = self.unwrapInboundIn(data)
        var copy = context.channel.allocator.buffer(capacity: buffer.readableBytes)
        copy.writeImmutableBuffer(buffer)
        context.fireChannelRead(self.wrapInboundOut(copy))
    }
}

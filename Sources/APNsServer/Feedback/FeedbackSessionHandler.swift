import APNsCore
import APNsWire
import Logging
import NIOCore

/// One feedback-service connection: on connect, writes a tuple per token that became invalid,
/// clears what was written once it is out, then closes. Runs on the connection's event loop.
final class FeedbackSessionHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private let relay: Relay
    private let reader: StoreReader
    /// The topics whose tokens this provider reads; `nil` for all.
    private let topics: Set<String>?
    private let logger: Logger

    /// The environment whose tokens this connection reads (its SNI's, or the port's).
    private let environment: APNsEnvironment?

    init(relay: Relay, reader: StoreReader, topics: Set<String>?, environment: APNsEnvironment? = nil, logger: Logger) {
        self.environment = environment
        self.relay = relay
        self.reader = reader
        self.topics = topics
        self.logger = logger
    }

    /// Added once the TLS handshake is done: the list goes out at once.
    func handlerAdded(context: ChannelHandlerContext) {
        let entries: [FeedbackEntry]
        do {
            entries = try self.reader.feedback(topics: self.topics, environment: self.environment)
        } catch {
            self.logger.info("could not read the feedback list", metadata: ["store.error": "\(error)"])
            context.close(promise: nil)
            return
        }
        var buffer = context.channel.allocator.buffer(capacity: entries.count * 38)
        for entry in entries {
            FeedbackTuple(time: UInt32(clamping: entry.at / 1000), token: entry.token.bytes).write(into: &buffer)
        }
        let relay = self.relay
        let logger = self.logger
        context.writeAndFlush(self.wrapOutboundOut(buffer)).assumeIsolated().whenComplete { result in
            // Only what reached the provider's socket is cleared.
            guard case .success = result, !entries.isEmpty else {
                context.close(promise: nil)
                return
            }
            relay.clearFeedback(entries, on: context.eventLoop).assumeIsolated().whenComplete { cleared in
                if case .failure(let error) = cleared {
                    logger.info("could not clear the feedback list", metadata: ["store.error": "\(error)"])
                }
                context.close(promise: nil)
            }
        }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        // Providers only listen here; anything they send is ignored.
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if event is ChannelShouldQuiesceEvent || event is IdleStateHandler.IdleStateEvent {
            context.close(promise: nil)
        } else {
            context.fireUserInboundEventTriggered(event)
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        self.logger.debug("feedback connection error", metadata: ["connection.error": "\(error)"])
        context.close(promise: nil)
    }
}

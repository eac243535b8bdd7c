import NIOCore
import NIOHTTP1
import NIOPosix

/// HTTP/1.1 to another shard's admin API (plain HTTP on loopback or the cluster's network, as
/// the admin API itself is): one request per connection, or an event stream read as it comes.
struct PeerClient: Sendable {
    let group: any EventLoopGroup

    struct Answer: Sendable {
        var status: Int
        var body: [UInt8]
    }

    /// What went wrong talking to a peer, in words for the "unanswered" list.
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// One request; fails after `timeout` or when the peer cannot be reached.
    func request(_ address: String, method: String = "GET", path: String, body: [UInt8] = [], timeout: TimeAmount = .seconds(3)) -> EventLoopFuture<Answer> {
        let loop = self.group.next()
        let promise = loop.makePromise(of: Answer.self)
        let connected = self.connect(address, on: loop) { channel in
            try channel.pipeline.syncOperations.addHandler(Collector(promise: promise))
        }
        connected.whenFailure { promise.fail(Failure(description: "\(address): \($0)")) }
        connected.whenSuccess { channel in
            Self.send(method: method, path: path, body: body, host: address, on: channel)
            let timer = loop.scheduleTask(in: timeout) {
                promise.fail(Failure(description: "\(address) did not answer within \(timeout.nanoseconds / 1_000_000) ms"))
                channel.close(promise: nil)
            }
            promise.futureResult.whenComplete { _ in
                timer.cancel()
                channel.close(promise: nil)
            }
        }
        return promise.futureResult
    }

    /// Opens `path` as a Server-Sent Events stream: `onStart` once it is answered 200, `onEvent`
    /// with each event (its text, with the blank line that ends it; comments left out), on the
    /// connection's loop; `onEnd` once, when the stream ends or cannot start. The future holds
    /// the connection, for closing it.
    func stream(
        _ address: String, path: String, onStart: @escaping @Sendable () -> Void, onEvent: @escaping @Sendable (String) -> Void,
        onEnd: @escaping @Sendable (String) -> Void
    ) -> EventLoopFuture<any Channel> {
        let loop = self.group.next()
        let connected = self.connect(address, on: loop) { channel in
            try channel.pipeline.syncOperations.addHandler(Streamer(onStart: onStart, onEvent: onEvent, onEnd: onEnd))
        }
        connected.whenFailure { onEnd("\(address): \($0)") }
        connected.whenSuccess { Self.send(method: "GET", path: path, body: [], host: address, on: $0) }
        return connected
    }

    private func connect(_ address: String, on loop: any EventLoop, _ add: @escaping @Sendable (any Channel) throws -> Void) -> EventLoopFuture<any Channel> {
        let parts = address.split(separator: ":")
        guard parts.count == 2, let port = Int(parts[1]) else {
            return loop.makeFailedFuture(Failure(description: "\(address) is not host:port"))
        }
        return ClientBootstrap(group: loop)
            .connectTimeout(.seconds(2))
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHTTPClientHandlers()
                    try add(channel)
                }
            }
            .connect(host: String(parts[0]), port: port)
    }

    private static func send(method: String, path: String, body: [UInt8], host: String, on channel: any Channel) {
        var head = HTTPRequestHead(version: .http1_1, method: HTTPMethod(rawValue: method), uri: path)
        head.headers.add(name: "host", value: host)
        head.headers.add(name: "connection", value: "close")
        head.headers.add(name: "content-length", value: String(body.count))
        channel.write(HTTPClientRequestPart.head(head), promise: nil)
        if !body.isEmpty { channel.write(HTTPClientRequestPart.body(.byteBuffer(ByteBuffer(bytes: body))), promise: nil) }
        channel.writeAndFlush(HTTPClientRequestPart.end(nil), promise: nil)
    }

    /// Gathers one answer; on the connection's loop.
    final class Collector: ChannelInboundHandler {
        typealias InboundIn = HTTPClientResponsePart
        private let promise: EventLoopPromise<Answer>
        private var answer = Answer(status: 0, body: [])

        init(promise: EventLoopPromise<Answer>) { self.promise = promise }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            switch self.unwrapInboundIn(data) {
            case .head(let head): self.answer.status = Int(head.status.code)
            case .body(let buffer): self.answer.body += buffer.readableBytesView
            case .end: self.promise.succeed(self.answer)
            }
        }

        func channelInactive(context: ChannelHandlerContext) {
            self.promise.fail(Failure(description: "the connection closed before the answer ended"))
        }
    }

    /// Hands an event stream's events on as they come; on the connection's loop.
    final class Streamer: ChannelInboundHandler {
        typealias InboundIn = HTTPClientResponsePart
        private let onStart: @Sendable () -> Void
        private let onEvent: @Sendable (String) -> Void
        private let onEnd: @Sendable (String) -> Void
        private var ended = false
        /// What has come of an event not yet ended by a blank line.
        private var pending: [UInt8] = []
        /// An event stream's events are small; a peer sending one larger than this is cut off.
        static let maximumEvent = 1 << 20

        init(onStart: @escaping @Sendable () -> Void, onEvent: @escaping @Sendable (String) -> Void, onEnd: @escaping @Sendable (String) -> Void) {
            self.onStart = onStart
            self.onEvent = onEvent
            self.onEnd = onEnd
        }

        /// Hands on every complete event in `pending`.
        private func split(context: ChannelHandlerContext) {
            var start = self.pending.startIndex
            var index = start
            while index + 1 < self.pending.endIndex {
                if self.pending[index] == UInt8(ascii: "\n"), self.pending[index + 1] == UInt8(ascii: "\n") {
                    let event = self.pending[start..<(index + 2)]
                    if event.first != UInt8(ascii: ":") { self.onEvent(String(decoding: event, as: UTF8.self)) }
                    start = index + 2
                    index = start
                } else {
                    index += 1
                }
            }
            self.pending.removeSubrange(..<start)
            if self.pending.count > Self.maximumEvent { self.end("sent an event over \(Self.maximumEvent) bytes", context: context) }
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            switch self.unwrapInboundIn(data) {
            case .head(let head) where head.status != .ok: self.end("answered \(head.status.code)", context: context)
            case .head: self.onStart()
            case .body(let buffer):
                guard !self.ended else { return }
                self.pending += buffer.readableBytesView
                self.split(context: context)
            case .end: self.end("the stream ended", context: context)
            }
        }

        func channelInactive(context: ChannelHandlerContext) { self.end("the connection closed", context: context) }

        private func end(_ why: String, context: ChannelHandlerContext) {
            guard !self.ended else { return }
            self.ended = true
            self.onEnd(why)
            context.close(promise: nil)
        }
    }
}

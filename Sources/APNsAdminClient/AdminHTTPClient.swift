import NIOCore
import NIOHTTP1
import NIOPosix

/// HTTP/1.1 to an emulator's admin API (plain HTTP, as the admin API is): one request per
/// connection, or an event stream read as it comes. A shard asks its peers with it; the tests
/// and the testing library ask the emulator they started.
public struct AdminHTTPClient: Sendable {
    let group: any EventLoopGroup
    /// How long a connection may take: short for a shard asking its peers (one that does not
    /// answer is left out), long for a test on a busy machine.
    let connectTimeout: TimeAmount
    /// The admin token, sent as `Authorization: Bearer` with every request; nil sends none.
    let token: String?

    public init(
        group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton, connectTimeout: TimeAmount = .seconds(2),
        token: String? = nil
    ) {
        self.group = group
        self.connectTimeout = connectTimeout
        self.token = token
    }

    public struct Answer: Sendable {
        public var status: Int
        /// The headers, names in lower case, in order.
        public var headers: [(name: String, value: String)]
        public var body: [UInt8]

        public init(status: Int, headers: [(name: String, value: String)] = [], body: [UInt8]) {
            self.status = status
            self.headers = headers
            self.body = body
        }
    }

    /// What went wrong talking to an admin API, in words (a cluster's "unanswered" list).
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// One request to `address` (`host:port`); fails after `timeout`, when the address cannot be
    /// reached, or when the request cannot be written (a path HTTP/1.1 cannot carry).
    /// `headers` are sent besides the client's own; a `host` among them replaces the address.
    public func request(
        _ address: String, method: String = "GET", path: String, body: [UInt8] = [], headers: [(name: String, value: String)] = [],
        timeout: TimeAmount = .seconds(3)
    ) -> EventLoopFuture<Answer> {
        let loop = self.group.next()
        let promise = loop.makePromise(of: Answer.self)
        let connected = self.connect(address, on: loop) { channel in
            try channel.pipeline.syncOperations.addHandler(Collector(promise: promise))
        }
        connected.whenFailure { promise.fail(Failure(description: "\(address): \($0)")) }
        connected.whenSuccess { channel in
            Self.send(method: method, path: path, body: body, host: address, token: self.token, headers: headers, on: channel)
                .whenFailure { error in
                promise.fail(Failure(description: "\(address): the request could not be written: \(error)"))
            }
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

    /// Opens `path` as a Server-Sent Events stream: `onStart` with the content type once it is
    /// answered 200, `onEvent` with each event (its text, with the blank line that ends it;
    /// comments left out), on the connection's loop; `onEnd` once, when the stream ends or
    /// cannot start. The future holds the connection, for closing it.
    public func stream(
        _ address: String, path: String, headers: [(name: String, value: String)] = [],
        onStart: @escaping @Sendable (_ contentType: String) -> Void,
        onEvent: @escaping @Sendable (String) -> Void,
        onEnd: @escaping @Sendable (String) -> Void
    ) -> EventLoopFuture<any Channel> {
        let loop = self.group.next()
        let connected = self.connect(address, on: loop) { channel in
            try channel.pipeline.syncOperations.addHandler(Streamer(onStart: onStart, onEvent: onEvent, onEnd: onEnd))
        }
        connected.whenFailure { onEnd("\(address): \($0)") }
        connected.whenSuccess { channel in
            Self.send(method: "GET", path: path, body: [], host: address, token: self.token, headers: headers, on: channel).whenFailure { error in
                onEnd("\(address): the request could not be written: \(error)")
                channel.close(promise: nil)
            }
        }
        return connected
    }

    private func connect(
        _ address: String, on loop: any EventLoop, _ add: @escaping @Sendable (any Channel) throws -> Void
    ) -> EventLoopFuture<any Channel> {
        let parts = address.split(separator: ":")
        guard parts.count == 2, let port = Int(parts[1]) else {
            return loop.makeFailedFuture(Failure(description: "\(address) is not host:port"))
        }
        return ClientBootstrap(group: loop)
            .connectTimeout(self.connectTimeout)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHTTPClientHandlers()
                    try add(channel)
                }
            }
            .connect(host: String(parts[0]), port: port)
    }

    /// Writes the request; the future fails when NIO refuses any part of it.
    private static func send(
        method: String, path: String, body: [UInt8], host: String, token: String?, headers: [(name: String, value: String)] = [],
        on channel: any Channel
    ) -> EventLoopFuture<Void> {
        var head = HTTPRequestHead(version: .http1_1, method: HTTPMethod(rawValue: method), uri: path)
        if !headers.contains(where: { $0.name.lowercased() == "host" }) { head.headers.add(name: "host", value: host) }
        if let token { head.headers.add(name: "authorization", value: "Bearer " + token) }
        for header in headers { head.headers.add(name: header.name, value: header.value) }
        head.headers.add(name: "connection", value: "close")
        head.headers.add(name: "content-length", value: String(body.count))
        let written = channel.write(HTTPClientRequestPart.head(head))
        if !body.isEmpty { channel.write(HTTPClientRequestPart.body(.byteBuffer(ByteBuffer(bytes: body))), promise: nil) }
        return written.and(channel.writeAndFlush(HTTPClientRequestPart.end(nil))).map { _ in }
    }

    /// Gathers one answer; on the connection's loop.
    final class Collector: ChannelInboundHandler {
        typealias InboundIn = HTTPClientResponsePart
        private let promise: EventLoopPromise<Answer>
        private var answer = Answer(status: 0, body: [])

        init(promise: EventLoopPromise<Answer>) { self.promise = promise }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            switch self.unwrapInboundIn(data) {
            case .head(let head):
                self.answer.status = Int(head.status.code)
                self.answer.headers = head.headers.map { ($0.name.lowercased(), $0.value) }
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
        private let onStart: @Sendable (String) -> Void
        private let onEvent: @Sendable (String) -> Void
        private let onEnd: @Sendable (String) -> Void
        private var ended = false
        private var events = ServerSentEvents()

        init(
            onStart: @escaping @Sendable (String) -> Void, onEvent: @escaping @Sendable (String) -> Void,
            onEnd: @escaping @Sendable (String) -> Void
        ) {
            self.onStart = onStart
            self.onEvent = onEvent
            self.onEnd = onEnd
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            switch self.unwrapInboundIn(data) {
            case .head(let head) where head.status != .ok: self.end("answered \(head.status.code)", context: context)
            case .head(let head): self.onStart(head.headers["content-type"].first ?? "")
            case .body(let buffer):
                guard !self.ended else { return }
                for event in self.events.append(buffer.readableBytesView) { self.onEvent(event) }
                if self.events.isOverflowing {
                    self.end("sent an event over \(ServerSentEvents.maximumEvent) bytes", context: context)
                }
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

import APNsCore
import Foundation
import NIOCore
import NIOHPACK
import NIOHTTP2
import NIOPosix
import NIOSSL
import Synchronization

/// A minimal HTTP/2 provider client over real TLS, built on NIOHTTP2, for end-to-end tests.
public final class HTTP2TestClient: Sendable {
    /// One response: status, headers, body.
    public struct Response: Sendable {
        public var status: Int
        public var headers: [(name: String, value: String)]
        public var body: [UInt8]

        public func header(_ name: String) -> String? { self.headers.first { $0.name == name }?.value }

        /// The `reason` of a JSON error body.
        public var reason: String? { self.json?["reason"] as? String }

        /// The `timestamp` of a JSON error body.
        public var timestamp: Int64? { (self.json?["timestamp"] as? NSNumber)?.int64Value }

        public var json: [String: Any]? {
            JSONValue.foundationObject(self.body) as? [String: Any]
        }
    }

    /// What the server said on stream 0.
    public struct ConnectionEvents: Sendable {
        public var settings: [HTTP2Setting] = []
        public var goAway: (lastStreamID: HTTP2StreamID, errorCode: HTTP2ErrorCode, debugData: String)?
        public var windowIncrements: Int = 0
        /// The connection ended abruptly: a TCP reset (ECONNRESET), or TCP closed without TLS's
        /// close_notify (which side of the race a reset lands on depends on timing).
        public var resetByPeer = false
        /// The connection is closed.
        public var closed = false
    }

    public let channel: any Channel
    private let multiplexer: NIOHTTP2Handler.StreamMultiplexer
    private let observer: ConnectionObserver

    /// Connects with ALPN h2, verifying the server certificate against `caPath` and presenting
    /// `identity` if given.
    public static func connect(
        host: String,
        port: Int,
        caPath: String,
        serverName: String = "localhost",
        identity: ClientIdentity? = nil
    ) async throws -> HTTP2TestClient {
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.trustRoots = .certificates(try NIOSSLCertificate.fromPEMFile(caPath))
        try identity?.apply(to: &tls)
        tls.applicationProtocols = ["h2"]
        let sslContext = try NIOSSLContext(configuration: tls)
        let observer = ConnectionObserver()
        let (channel, multiplexer) = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .channelOption(.tcpOption(.tcp_nodelay), value: 1)
            .connect(host: host, port: port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    let sync = channel.pipeline.syncOperations
                    try sync.addHandler(NIOSSLClientHandler(context: sslContext, serverHostname: serverName))
                    var stream = NIOHTTP2Handler.StreamConfiguration()
                    stream.targetWindowSize = 1 << 20
                    let multiplexer = try sync.configureHTTP2Pipeline(
                        mode: .client,
                        connectionConfiguration: .init(),
                        streamConfiguration: stream
                    ) { $0.eventLoop.makeSucceededVoidFuture() }
                    try sync.addHandler(observer)
                    return (channel, multiplexer)
                }
            }
        return HTTP2TestClient(channel: channel, multiplexer: multiplexer, observer: observer)
    }

    private init(channel: any Channel, multiplexer: NIOHTTP2Handler.StreamMultiplexer, observer: ConnectionObserver) {
        self.channel = channel
        self.multiplexer = multiplexer
        self.observer = observer
    }

    /// Sends one request on a new stream and waits for its response. `headers` are regular headers
    /// (names lower case), sent in order, so duplicates are possible; `body` nil sends HEADERS with
    /// END_STREAM, unless `endStream` is false (a request that never finishes).
    public func send(
        method: String = "POST",
        path: String,
        headers: [(String, String)] = [],
        body: [UInt8]? = nil,
        endStream: Bool = true
    ) async throws -> Response {
        try await self.begin(method: method, path: path, headers: headers, body: body, endStream: endStream).get()
    }

    /// Sends one request on a new stream; returns once its frames are written to the connection
    /// (so later requests follow it on the wire), with the response still to come.
    public func begin(
        method: String = "POST",
        path: String,
        headers: [(String, String)] = [],
        body: [UInt8]? = nil,
        endStream: Bool = true
    ) async throws -> EventLoopFuture<Response> {
        let promise = self.channel.eventLoop.makePromise(of: Response.self)
        let streamChannel: any Channel
        do {
            streamChannel = try await self.multiplexer.createStreamChannel { stream in
                stream.eventLoop.makeCompletedFuture {
                    try stream.pipeline.syncOperations.addHandler(ResponseCollector(promise: promise))
                }
            }.get()
        } catch {
            // No stream, so no collector will ever complete the promise.
            promise.fail(error)
            throw error
        }
        var block = HPACKHeaders([(":method", method), (":scheme", "https"), (":authority", "localhost"), (":path", path)])
        for (name, value) in headers { block.add(name: name, value: value) }
        let endAfterHeaders = body == nil && endStream
        let headersWritten = streamChannel.write(HTTP2Frame.FramePayload.headers(.init(headers: block, endStream: endAfterHeaders)))
        var lastWrite = headersWritten
        if let body {
            var buffer = streamChannel.allocator.buffer(capacity: body.count)
            buffer.writeBytes(body)
            lastWrite = streamChannel.write(HTTP2Frame.FramePayload.data(.init(data: .byteBuffer(buffer), endStream: endStream)))
        }
        streamChannel.flush()
        try await lastWrite.get()
        return promise.futureResult
    }

    /// A push to `/3/device/<token>` with a JSON body.
    public func push(token: String, headers: [(String, String)] = [], json: String = #"{"aps":{"alert":"hello"}}"#) async throws -> Response {
        try await self.send(path: "/3/device/\(token)", headers: headers, body: Array(json.utf8))
    }

    /// SETTINGS, GOAWAY and WINDOW_UPDATEs the server has sent on stream 0 so far.
    public var events: ConnectionEvents { self.observer.events.withLock { $0 } }

    /// Waits (up to `timeout`) until `condition` holds for the connection events.
    public func waitForEvents(timeout: Duration = .seconds(10), _ condition: @Sendable (ConnectionEvents) -> Bool) async throws -> ConnectionEvents {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            let events = self.events
            if condition(events) { return events }
            try await self.channel.eventLoop.scheduleTask(in: .milliseconds(5)) {}.futureResult.get()
        }
        throw TestClientError.timedOut
    }

    public func close() async throws {
        try await self.channel.close()
    }
}

public enum TestClientError: Error {
    case timedOut
    case streamClosedWithoutResponse
    /// The server sent something a test did not expect; the message says what.
    case unexpected(String)
}

/// Records the server's connection-level frames; on the connection's event loop.
final class ConnectionObserver: ChannelInboundHandler, Sendable {
    typealias InboundIn = HTTP2Frame
    let events = Mutex(HTTP2TestClient.ConnectionEvents())

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = self.unwrapInboundIn(data)
        switch frame.payload {
        case .settings(.settings(let settings)):
            self.events.withLock { $0.settings.append(contentsOf: settings) }
        case .goAway(let lastStreamID, let errorCode, let opaqueData):
            let text = opaqueData.map { String(buffer: $0) } ?? ""
            self.events.withLock { $0.goAway = (lastStreamID, errorCode, text) }
        case .windowUpdate(let increment):
            self.events.withLock { $0.windowIncrements += increment }
        default:
            break
        }
        context.fireChannelRead(data)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if error.isConnectionReset || (error as? NIOSSLError) == .uncleanShutdown { self.events.withLock { $0.resetByPeer = true } }
        context.fireErrorCaught(error)
    }

    func channelInactive(context: ChannelHandlerContext) {
        self.events.withLock { $0.closed = true }
        context.fireChannelInactive()
    }
}

/// Collects one stream's response; on the stream's event loop.
final class ResponseCollector: ChannelInboundHandler {
    typealias InboundIn = HTTP2Frame.FramePayload
    private let promise: EventLoopPromise<HTTP2TestClient.Response>
    private var response = HTTP2TestClient.Response(status: 0, headers: [], body: [])
    private var done = false

    init(promise: EventLoopPromise<HTTP2TestClient.Response>) {
        self.promise = promise
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch self.unwrapInboundIn(data) {
        case .headers(let headers):
            for (name, value, _) in headers.headers {
                if name == ":status" {
                    self.response.status = Int(value) ?? 0
                } else {
                    self.response.headers.append((name, value))
                }
            }
            if headers.endStream { self.complete() }
        case .data(let data):
            if case .byteBuffer(let buffer) = data.data { self.response.body += Array(buffer.readableBytesView) }
            if data.endStream { self.complete() }
        default:
            break
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        if !self.done {
            self.done = true
            self.promise.fail(TestClientError.streamClosedWithoutResponse)
        }
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if !self.done {
            self.done = true
            self.promise.fail(error)
        }
        context.close(promise: nil)
    }

    private func complete() {
        guard !self.done else { return }
        self.done = true
        self.promise.succeed(self.response)
    }
}

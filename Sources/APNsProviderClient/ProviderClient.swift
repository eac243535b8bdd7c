import NIOCore
import NIOHPACK
import NIOHTTP2
import NIOPosix
import NIOSSL

/// A provider's side of the HTTP/2 API in Swift: one TLS connection (ALPN h2), any number of
/// pushes on it, each on its own stream. `apns-emulator push` and `channels`, the benchmark and
/// the tests' HTTP/2 client (`HTTP2TestClient`, which adds what a test watches on stream 0) are
/// built on it.
public final class ProviderClient: Sendable {
    /// How the client checks the server's certificate.
    public enum Trust: Sendable {
        /// Chain to these PEM certificates (the emulator's development CA).
        case certificates([UInt8])
        /// No check: only for the emulator talking to itself on the loopback interface.
        case loopback
    }

    /// The connection (its event loop runs the streams' handlers).
    public let channel: any Channel
    private let multiplexer: NIOHTTP2Handler.StreamMultiplexer

    private init(channel: any Channel, multiplexer: NIOHTTP2Handler.StreamMultiplexer) {
        self.channel = channel
        self.multiplexer = multiplexer
    }

    /// Connects with TLS and ALPN h2. `identity` is a PEM certificate chain and key for
    /// certificate-based provider authentication; `streamWindow` each stream's receive window
    /// (NIO's default when nil); `observer` a handler after HTTP/2 that sees the connection's
    /// own frames (SETTINGS, GOAWAY, WINDOW_UPDATE).
    public static func connect(
        host: String, port: Int, trust: Trust, serverName: String = "localhost",
        identity: (certificates: [UInt8], key: [UInt8])? = nil,
        group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton,
        streamWindow: Int? = nil,
        observer: (any ChannelInboundHandler & Sendable)? = nil
    ) async throws -> ProviderClient {
        var tls = TLSConfiguration.makeClientConfiguration()
        switch trust {
        case .certificates(let pem): tls.trustRoots = .certificates(try NIOSSLCertificate.fromPEMBytes(pem))
        case .loopback: tls.certificateVerification = .none
        }
        if let identity {
            tls.certificateChain = try NIOSSLCertificate.fromPEMBytes(identity.certificates).map { .certificate($0) }
            tls.privateKey = .privateKey(try NIOSSLPrivateKey(bytes: identity.key, format: .pem))
        }
        tls.applicationProtocols = ["h2"]
        let context = try NIOSSLContext(configuration: tls)
        let (channel, multiplexer) = try await ClientBootstrap(group: group)
            .channelOption(.tcpOption(.tcp_nodelay), value: 1)
            .connectTimeout(.seconds(10))
            .connect(host: host, port: port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    let sync = channel.pipeline.syncOperations
                    try sync.addHandler(NIOSSLClientHandler(context: context, serverHostname: serverName))
                    var stream = NIOHTTP2Handler.StreamConfiguration()
                    if let streamWindow { stream.targetWindowSize = streamWindow }
                    let multiplexer = try sync.configureHTTP2Pipeline(
                        mode: .client, connectionConfiguration: .init(), streamConfiguration: stream
                    ) {
                        $0.eventLoop.makeSucceededVoidFuture()
                    }
                    if let observer { try sync.addHandler(observer) }
                    return (channel, multiplexer)
                }
            }
        return ProviderClient(channel: channel, multiplexer: multiplexer)
    }

    /// Sends one push and waits for APNs' answer, at most `timeout` (then throws
    /// ``ProviderClientError/timedOut``; the push may still be answered later).
    public func push(_ push: ProviderPush, timeout: TimeAmount? = nil) async throws -> ProviderAnswer {
        let path = push.path ?? "/3/device/\(push.token)"
        return try await self.begin(
            method: push.method, path: path, headers: push.headers, body: push.payload.isEmpty ? nil : push.payload,
            timeout: timeout
        ).get()
    }

    /// Sends one request on a new stream; returns once its frames are written (so later requests
    /// follow it on the wire), with the answer still to come. `headers` are regular headers, in
    /// order (duplicates allowed); `body` nil sends HEADERS with END_STREAM, unless `endStream`
    /// is false (a request that never finishes).
    public func begin(
        method: String = "POST", path: String, headers: [(String, String)] = [], body: [UInt8]? = nil,
        endStream: Bool = true, timeout: TimeAmount? = nil
    ) async throws -> EventLoopFuture<ProviderAnswer> {
        let promise = self.channel.eventLoop.makePromise(of: ProviderAnswer.self)
        if let timeout {
            let deadline = self.channel.eventLoop.scheduleTask(in: timeout) { promise.fail(ProviderClientError.timedOut) }
            promise.futureResult.whenComplete { _ in deadline.cancel() }
        }
        let stream: any Channel
        do {
            stream = try await self.multiplexer.createStreamChannel { stream in
                stream.eventLoop.makeCompletedFuture {
                    try stream.pipeline.syncOperations.addHandler(AnswerCollector(promise: promise))
                }
            }.get()
        } catch {
            promise.fail(error)
            throw error
        }
        // An `:authority` among `headers` replaces the default (a provider that resolves Apple's
        // host to the emulator sends that host).
        let authority = headers.first { $0.0 == ":authority" }?.1 ?? "localhost"
        var block = HPACKHeaders([(":method", method), (":scheme", "https"), (":authority", authority), (":path", path)])
        for (name, value) in headers where name != ":authority" { block.add(name: name, value: value) }
        var written = stream.write(HTTP2Frame.FramePayload.headers(.init(headers: block, endStream: body == nil && endStream)))
        if let body {
            var buffer = stream.allocator.buffer(capacity: body.count)
            buffer.writeBytes(body)
            written = stream.write(HTTP2Frame.FramePayload.data(.init(data: .byteBuffer(buffer), endStream: endStream)))
        }
        stream.flush()
        try await written.get()
        return promise.futureResult
    }

    public func close() async throws {
        do {
            try await self.channel.close()
        } catch ChannelError.alreadyClosed {
            // The server closed it first.
        }
    }
}

import Foundation
import NIOCore
import NIOHPACK
import NIOHTTP2
import NIOPosix
import NIOSSL

/// The floor of the stack: swift-nio, swift-nio-ssl and swift-nio-http2 configured as the
/// emulator configures them (TLS with ALPN h2, the same SETTINGS, no stream multiplexer, one
/// event loop per core), answering every request with `200` and an `apns-id` and doing nothing
/// else: no validation, no store, no journal. `.ci/benchmark.sh reference` drives it beside
/// nghttpd and the emulator, so the share of the gap that the libraries themselves set is a
/// figure, not a guess.
///
///   swift run -c release APNsBenchmark floor PORT KEY.pem CERT.pem [threads]
enum StackFloor {
    nonisolated static func run(_ arguments: [String]) async throws {
        try await Self.serve(arguments, name: "floor", label: "stack floor") { pipeline in
            var connection = NIOHTTP2Handler.ConnectionConfiguration()
            connection.initialSettings = [
                HTTP2Setting(parameter: .maxConcurrentStreams, value: 1000),
                HTTP2Setting(parameter: .headerTableSize, value: 4096),
                HTTP2Setting(parameter: .initialWindowSize, value: 65_535),
                HTTP2Setting(parameter: .maxFrameSize, value: 16_384),
                HTTP2Setting(parameter: .maxHeaderListSize, value: 16_384),
            ]
            try pipeline.addHandler(NIOHTTP2Handler(mode: .server, frameDelegate: nil, connectionConfiguration: connection))
            try pipeline.addHandler(FloorResponder())
        }
    }

    /// A TLS (ALPN h2) listener on `PORT KEY.pem CERT.pem [threads]` whose connections get the
    /// handlers `http2` adds after TLS; prints "<label> on <address>" once bound, then serves.
    nonisolated static func serve(
        _ arguments: [String], name: String, label: String,
        http2: @escaping @Sendable (ChannelPipeline.SynchronousOperations) throws -> Void
    ) async throws {
        guard arguments.count >= 3, let port = Int(arguments[0]) else {
            print("usage: APNsBenchmark \(name) PORT KEY.pem CERT.pem [threads]")
            exit(2)
        }
        let threads = arguments.count > 3 ? Int(arguments[3]) ?? System.coreCount : System.coreCount
        var tls = TLSConfiguration.makeServerConfiguration(
            certificateChain: try NIOSSLCertificate.fromPEMFile(arguments[2]).map { .certificate($0) },
            privateKey: .privateKey(try NIOSSLPrivateKey(file: arguments[1], format: .pem))
        )
        tls.applicationProtocols = ["h2"]
        let context = try NIOSSLContext(configuration: tls)
        let group = MultiThreadedEventLoopGroup(numberOfThreads: threads)
        let channel = try await ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: 256)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.tcpOption(.tcp_nodelay), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: context))
                    try http2(channel.pipeline.syncOperations)
                }
            }
            .bind(host: "127.0.0.1", port: port)
            .get()
        // Written at once (not buffered): the benchmark waits for this line.
        FileHandle.standardOutput.write(
            Data("\(label) on \(channel.localAddress.map { "\($0)" } ?? "?") with \(threads) event loops\n".utf8))
        try await channel.closeFuture.get()
    }
}

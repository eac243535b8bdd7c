import APNsCore
import APNsServer
import APNsTestSupport
import APNsWire
import Dispatch
import Foundation
import NIOCore
import NIOPosix
import NIOSSL

/// Binary gateway throughput: several TLS connections each write pipelined command-2 frames
/// (token, ~100-byte payload, identifier, expiry, priority) as fast as the emulator reads them.
/// Each connection ends with one malformed byte: the emulator answers it only after every
/// notification before it has committed, so the last answer marks the moment all were stored.
///
///   swift run -c release APNsBenchmark gateway [connections=4] [frames=1000000] [tokens=10000]
enum GatewayBenchmark {
    nonisolated static func run(_ arguments: [Int]) async throws {
        let connections = arguments.count > 0 ? arguments[0] : 4
        let frames = arguments.count > 1 ? arguments[1] : 1_000_000
        let tokens = arguments.count > 2 ? arguments[2] : 10_000
        let perConnection = frames / connections

        let emulator = try await RunningEmulator.start {
            $0.durability = .relaxed
            $0.maximumQueuedPerDevice = max(1000, frames / tokens + 1)
        }
        let chunk = self.chunk(tokens: tokens)
        // A warm-up connection, so that the measured run does not pay for first use.
        _ = try await self.drive(emulator, frames: min(tokens, 20_000), chunk: chunk, tokens: tokens)

        // Counted in the log: with Apple's storage (one notification per app while the device is
        // offline, the default) each frame replaces its token's queued one, and the queue stays
        // at one per token however many are stored.
        let before = try emulator.emulator.store.historyCount().notifications
        let started = DispatchTime.now().uptimeNanoseconds
        let answers = try await withThrowingTaskGroup(of: BinaryErrorResponse?.self) { group in
            for _ in 0..<connections {
                group.addTask { try await self.drive(emulator, frames: perConnection, chunk: chunk, tokens: tokens) }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
        let stored = try emulator.emulator.store.historyCount().notifications - before
        let total = perConnection * connections
        let unexpected = answers.filter { $0?.status != .protocolError }.count

        print(
            "binary gateway, relaxed mode: \(connections) TLS connections, \(total) command-2 frames of \(chunk.readableBytes / tokens) bytes, \(tokens) tokens"
        )
        print(
            "  stored \(stored)/\(total) in \(String(format: "%.2f", elapsed)) s: \(String(format: "%.0f", Double(stored) / elapsed)) frames/s stored; unexpected answers \(unexpected)"
        )
        try await emulator.stop()
    }

    /// One frame per token, identifiers from 1: written again and again.
    static func chunk(tokens: Int) -> ByteBuffer {
        var buffer = ByteBuffer()
        let payload = Array(#"{"aps":{"alert":{"title":"Benchmark","body":"A pipelined binary notification"},"badge":1}}"#.utf8)
        for i in 0..<tokens {
            var token = [UInt8](repeating: 0, count: 32)
            withUnsafeBytes(of: UInt64(i + 1).bigEndian) { token.replaceSubrange(24..<32, with: $0) }
            let request = BinaryPushRequest(
                command: 2, identifier: UInt32(i + 1), expiry: 2_000_000_000, token: token, payload: payload, priority: 10)
            BinaryPushEncoder.writeFrame(request, into: &buffer)
        }
        return buffer
    }

    /// Writes `frames` frames on a new connection, then one malformed byte, and returns the answer.
    static func drive(
        _ emulator: RunningEmulator, frames: Int, chunk: ByteBuffer, tokens: Int
    ) async throws -> BinaryErrorResponse? {
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.trustRoots = .certificates(try NIOSSLCertificate.fromPEMFile(emulator.caPath))
        let sslContext = try NIOSSLContext(configuration: tls)
        let answer = MultiThreadedEventLoopGroup.singleton.any().makePromise(of: BinaryErrorResponse?.self)
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(
                        NIOSSLClientHandler(context: sslContext, serverHostname: "localhost"))
                    try channel.pipeline.syncOperations.addHandler(AnswerReader(promise: answer))
                }
            }
            .connect(host: "127.0.0.1", port: emulator.gatewayPort)
            .get()
        var left = frames
        while left > 0 {
            let count = min(left, tokens)
            let piece = count == tokens ? chunk : self.prefix(of: chunk, frames: count)
            // Waiting for each write keeps a bounded amount in flight without slowing the pipeline.
            try await channel.writeAndFlush(piece).get()
            left -= count
        }
        try await channel.writeAndFlush(ByteBuffer(bytes: [9])).get()
        return try await answer.futureResult.get()
    }

    /// The first `frames` frames of `chunk`.
    static func prefix(of chunk: ByteBuffer, frames: Int) -> ByteBuffer {
        var reader = chunk
        var length = 0
        for _ in 0..<frames {
            guard let frameLength = reader.getInteger(at: reader.readerIndex + 1, as: UInt32.self) else { break }
            reader.moveReaderIndex(forwardBy: 5 + Int(frameLength))
            length += 5 + Int(frameLength)
        }
        return chunk.getSlice(at: chunk.readerIndex, length: length) ?? ByteBuffer()
    }

    /// Reads the one error response; completes with nil if the connection closes without one.
    final class AnswerReader: ChannelInboundHandler {
        typealias InboundIn = ByteBuffer
        private let promise: EventLoopPromise<BinaryErrorResponse?>
        private var received = ByteBuffer()
        private var answered = false

        init(promise: EventLoopPromise<BinaryErrorResponse?>) { self.promise = promise }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            var bytes = self.unwrapInboundIn(data)
            self.received.writeBuffer(&bytes)
            if !self.answered, let response = BinaryErrorResponse.read(from: &self.received) {
                self.answered = true
                self.promise.succeed(response)
                context.close(promise: nil)
            }
        }

        func channelInactive(context: ChannelHandlerContext) {
            if !self.answered { self.promise.succeed(nil) }
            self.answered = true
        }

        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            context.close(promise: nil)
        }
    }
}

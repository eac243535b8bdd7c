import CNGHTTP2
import Foundation
import NIOCore

/// The floor of the stack the provider front door is meant to stand on: swift-nio and
/// swift-nio-ssl as the emulator uses them, with HTTP/2 done by libnghttp2 (Debian's
/// `libnghttp2-dev`) instead of swift-nio-http2. Answers every request with `200` and an
/// `apns-id`, nothing else; beside ``StackFloor`` in `.ci/benchmark.sh reference`, it shows what
/// the HTTP/2 library itself costs per request.
///
///   swift run -c release APNsBenchmark floor-nghttp2 PORT KEY.pem CERT.pem [threads]
enum StackFloorNGHTTP2 {
    nonisolated static func run(_ arguments: [String]) async throws {
        try await StackFloor.serve(arguments, name: "floor-nghttp2", label: "nghttp2 stack floor") { pipeline in
            try pipeline.addHandler(try NGHTTP2FloorHandler())
        }
    }
}

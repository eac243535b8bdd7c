import APNsTestSupport
import Foundation
import Testing

/// Raw HTTP/2 frames (Tests/ThirdParty/h2_conformance.py, header blocks by PyPI's hpack) for the
/// h2spec 2.6.0 cases where HTTP/2 libraries differ; each expectation cites RFC 9113.
@Suite("HTTP/2 conformance of the provider port (h2spec cases)")
struct HTTP2ConformanceTests {
    static let script = Checkout.thirdParty("h2_conformance.py")
    static let python = ProcessInfo.processInfo.environment["APNS_EMULATOR_PYTHON"] ?? "python3"

    struct Case: Decodable {
        struct Frame: Decodable, Equatable {
            var type: String
            var stream: Int?
            var code: Int?
            var last_stream: Int?
            var status: String?
            var body: String?
        }
        var frames: [Frame]
        var closed: Bool
    }

    struct Settings: Decodable { var settings: [String: Int] }

    struct Report: Decodable {
        var settings: Settings
        var stream_error_then_request: Case
        var headers_on_half_closed: Case
        var headers_after_reset: Case
        var headers_on_closed: Case
        var smaller_stream_id: Case
        var invalid_ping: Case
        var continuations: Case
        var header_bomb: Case
        var rapid_reset: Case
    }

    @Test("stream errors reset one stream, connection errors name the last stream and close, big header lists fail alone")
    func conformance() async throws {
        let probe = try await Subprocess.run(Self.python, ["-c", "import hpack"])
        try #require(probe.status == 0, "hpack is missing: python3 -m pip install hpack==4.2.0 (\(probe.stderr))")
        try await withEmulator { emulator in
            let run = try await Subprocess.run(
                Self.python, [Self.script, "127.0.0.1", String(emulator.http2Port), emulator.caPath])
            try #require(run.status == 0, "h2_conformance.py failed: \(run.stderr)")
            let report = try JSONDecoder().decode(Report.self, from: Data(run.stdout.utf8))

            // APNs' SETTINGS, with its header list size of 8000 (the configured hard limit is larger).
            #expect(report.settings.settings["6"] == 8000)
            #expect(report.settings.settings["3"] == 1000)

            // RFC 9113 8.2.2: a connection-specific header makes the request malformed, a stream error;
            // the connection goes on and the next request is answered.
            let streamError = report.stream_error_then_request
            #expect(streamError.frames.first == .init(type: "RST_STREAM", stream: 1, code: 1))
            #expect(streamError.frames.contains { $0.type == "HEADERS" && $0.stream == 3 && $0.status == "200" })
            #expect(!streamError.closed)

            // RFC 9113 5.1, half-closed (remote): frames other than WINDOW_UPDATE, PRIORITY, RST_STREAM
            // are an error of type STREAM_CLOSED. libnghttp2 makes it a connection error, which 5.4.1
            // allows ("an endpoint MAY choose to treat a stream error as a connection error") and
            // h2spec 5.1/6 passes: GOAWAY STREAM_CLOSED naming stream 1, then the close.
            let halfClosed = report.headers_on_half_closed
            let halfClosedGoAway = try #require(halfClosed.frames.first { $0.type == "GOAWAY" })
            #expect(halfClosedGoAway.code == 5 && halfClosedGoAway.last_stream == 1)
            #expect(!halfClosed.frames.contains { $0.type == "RST_STREAM" })
            #expect(halfClosed.closed)

            // RFC 9113 5.1 and 6.8: HEADERS on a reset or closed stream is a connection error; GOAWAY
            // names the last stream processed (1, not 2^31-1) and the connection closes (h2spec 5.1/9, 5.1/12).
            for connectionError in [report.headers_after_reset, report.headers_on_closed] {
                let goAway = try #require(connectionError.frames.first { $0.type == "GOAWAY" })
                #expect(goAway.last_stream == 1)
                #expect(goAway.code != 0)
                #expect(connectionError.closed)
            }

            // RFC 9113 5.1.1: a stream id smaller than one the client opened, which it skipped, is a
            // connection error of type PROTOCOL_ERROR (h2spec 5.1.1/2); GOAWAY names stream 5, then the close.
            let smaller = report.smaller_stream_id
            let smallerGoAway = try #require(smaller.frames.first { $0.type == "GOAWAY" }, "\(smaller.frames)")
            #expect(smallerGoAway.code == 1 && smallerGoAway.last_stream == 5)
            #expect(!smaller.frames.contains { $0.stream == 3 })
            #expect(smaller.closed)

            // RFC 9113 6.7 and 5.4.1: PING on a stream is PROTOCOL_ERROR; GOAWAY, then the close (h2spec 5.4.1).
            let ping = try #require(report.invalid_ping.frames.first { $0.type == "GOAWAY" })
            #expect(ping.code == 1)
            #expect(ping.last_stream == 1)
            #expect(report.invalid_ping.closed)

            self.checkLimits(report)
        }
    }

    /// Header lists over the limit and rapid resets.
    private func checkLimits(_ report: Report) {
        // RFC 9113 6.10 and 10.5.1: a header block in HEADERS and CONTINUATIONs is one request; one
        // over the advertised 8000 bytes fails its stream (431), not the connection (h2spec 6.10/1).
        let continued = report.continuations
        #expect(continued.frames.contains { $0.type == "HEADERS" && $0.stream == 1 && $0.status == "431" })
        #expect(
            continued.frames.contains {
                $0.type == "DATA" && $0.stream == 1 && ($0.body ?? "").contains("RequestHeaderFieldsTooLarge")
            })
        #expect(continued.frames.contains { $0.type == "HEADERS" && $0.stream == 3 && $0.status == "200" })
        #expect(!continued.closed)

        // RFC 9113 10.5.1: HPACK lets 40 KB of header list arrive in 4 KB of frames; it is counted
        // (431 on its stream), not held, and the connection goes on.
        let bomb = report.header_bomb
        #expect(bomb.frames.contains { $0.type == "HEADERS" && $0.stream == 1 && $0.status == "431" })
        #expect(bomb.frames.contains { $0.type == "HEADERS" && $0.stream == 3 && $0.status == "200" })
        #expect(!bomb.closed)

        // Rapid reset (CVE-2023-44487): a client that opens and resets streams faster than
        // libnghttp2's limit (a burst of 1,000) is sent away and the connection closes.
        let rapid = report.rapid_reset
        #expect(rapid.frames.contains { $0.type == "GOAWAY" && $0.code != 0 }, "\(rapid.frames.suffix(3))")
        #expect(rapid.closed)
    }
}

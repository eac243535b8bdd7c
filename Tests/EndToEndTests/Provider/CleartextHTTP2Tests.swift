import APNsTestSupport
import Foundation
import Testing

/// `--h2c-port` (issue 41): the provider API over cleartext HTTP/2 with prior knowledge (RFC 9113
/// §3.3), for client libraries and proxies in test set-ups that speak it. Driven by curl's own
/// HTTP/2 client (`--http2-prior-knowledge`), as such a set-up would.
@Suite("Cleartext HTTP/2 (h2c)")
struct CleartextHTTP2Tests {
    static let app = "com.example.app"

    /// `curl --http2-prior-knowledge` POST; the status line, headers and body curl printed.
    static func curl(_ port: Int, _ path: String, headers: [String] = [], body: String) async throws -> String {
        var arguments = ["-sS", "-i", "--http2-prior-knowledge", "--max-time", "30", "-X", "POST"]
        for header in headers { arguments += ["-H", header] }
        arguments += ["--data-binary", body, "http://127.0.0.1:\(port)\(path)"]
        let run = try await Subprocess.run("curl", arguments)
        try #require(run.status == 0, "curl failed: \(run.stderr)")
        return run.stdout
    }

    @Test("a push over h2c is validated and stored as over TLS: 200 with an apns-id, BadDeviceToken for a bad token")
    func push() async throws {
        try await withEmulator(configure: { $0.h2cPort = 0 }) { emulator in
            #expect(emulator.h2cPort != 0 && emulator.h2cPort != emulator.http2Port)
            let token = try await emulator.offlineToken(topic: Self.app)
            let accepted = try await Self.curl(
                emulator.h2cPort, "/3/device/\(token.hex)", headers: ["apns-topic: \(Self.app)"],
                body: #"{"aps":{"alert":"over h2c"}}"#)
            #expect(accepted.hasPrefix("HTTP/2 200"), "\(accepted)")
            #expect(accepted.lowercased().contains("apns-id:"))
            let queued = try await emulator.queued(token.hex)
            #expect(queued.count == 1)
            let refused = try await Self.curl(
                emulator.h2cPort, "/3/device/abc", headers: ["apns-topic: \(Self.app)"], body: #"{"aps":{"alert":"x"}}"#)
            #expect(refused.hasPrefix("HTTP/2 400") && refused.contains(#""reason":"BadDeviceToken""#), "\(refused)")
            let journal = try await emulator.journal("status=rejected")
            #expect(journal.first?["port"] as? Int == emulator.h2cPort)
        }
    }

    @Test("--auth strict: no authorization is 403 MissingProviderToken; a provider token is accepted")
    func strict() async throws {
        try await withEmulator(configure: {
            $0.h2cPort = 0
            $0.auth = .strict
        }) { emulator in
            let key = try emulator.registerKey(topics: [Self.app])
            let token = try await emulator.offlineToken(topic: Self.app)
            let missing = try await Self.curl(
                emulator.h2cPort, "/3/device/\(token.hex)", headers: ["apns-topic: \(Self.app)"], body: #"{"aps":{"alert":"x"}}"#)
            #expect(missing.hasPrefix("HTTP/2 403") && missing.contains("MissingProviderToken"), "\(missing)")
            let authorization = try key.authorization(issuedAt: emulator.nowSeconds)
            let allowed = try await Self.curl(
                emulator.h2cPort, "/3/device/\(token.hex)",
                headers: ["apns-topic: \(Self.app)", "authorization: \(authorization)"], body: #"{"aps":{"alert":"x"}}"#)
            #expect(allowed.hasPrefix("HTTP/2 200"), "\(allowed)")
        }
    }

    @Test("off by default: no h2c listener")
    func offByDefault() async throws {
        try await withEmulator { emulator in
            #expect(emulator.h2cPort == 0)
        }
    }
}

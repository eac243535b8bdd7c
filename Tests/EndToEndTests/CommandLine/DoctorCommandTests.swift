import APNsTestSupport
import Foundation
import Testing

/// `apns-emulator doctor` from the built binary.
@Suite("apns-emulator doctor")
struct DoctorCommandTests {
    @Test(
        "doctor: on a fresh directory every check passes (the CA a note); beside a running emulator its ports and held data directory are problems, exit 1; it prints host, port and CA for provider libraries"
    )
    func doctor() async throws {
        let fresh = try TemporaryDirectory()
        let free = try await Subprocess.run(
            "env",
            [
                "-C", fresh.path, Subprocess.emulatorExecutable, "doctor", "--http2-port", "0", "--production-http2-port", "0",
                "--admin-port", "0",
                "--device-port", "0",
                "--gateway-port", "0", "--feedback-port", "0", "--channels-port", "0", "--web-push-port", "0",
            ])
        #expect(free.status == 0, "\(free.stdout)\(free.stderr)")
        #expect(
            free.stdout.contains("note    CA certs/ca.pem: not there yet")
                && free.stdout.contains("data directory .apns-emulator: created at first start"), "\(free.stdout)")
        #expect(!free.stdout.contains("problem"))

        let emulator = try await RunningEmulator.start()
        let busy = try await Subprocess.run(
            Subprocess.emulatorExecutable,
            [
                "doctor", "--http2-port", String(emulator.http2Port), "--production-http2-port",
                String(emulator.productionHTTP2Port), "--admin-port", String(emulator.adminPort), "--device-port",
                "0", "--gateway-port", "0",
                "--feedback-port", "0", "--channels-port", "0", "--web-push-port", "0", "--data-dir", emulator.dataDirectory,
                "--certs-dir", URL(fileURLWithPath: emulator.caPath).deletingLastPathComponent().path,
                "--web-push-port", String(emulator.webPushPort),
            ])
        #expect(busy.status == 1, "\(busy.stdout)\(busy.stderr)")
        let lines = busy.stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.hasPrefix("ok") && $0.contains("readable PEM certificate") }, "\(lines)")
        #expect(
            lines.contains {
                $0.hasPrefix("problem") && $0.contains("HTTP/2 provider API port \(emulator.http2Port)") && $0.contains("in use")
            }, "\(lines)")
        #expect(
            lines.contains { $0.hasPrefix("problem") && $0.contains("data directory") && $0.contains("another emulator") },
            "\(lines)")
        // Every listener is checked: the production endpoint's (issue 72), the Web Push service's (issue 50).
        #expect(
            lines.contains {
                $0.hasPrefix("problem") && $0.contains("HTTP/2 provider API, production port \(emulator.productionHTTP2Port)")
            }, "\(lines)")
        #expect(
            lines.contains { $0.hasPrefix("problem") && $0.contains("Web Push service port \(emulator.webPushPort)") }, "\(lines)"
        )
        #expect(
            lines.dropLast().last
                == "provider libraries: host 127.0.0.1, port \(emulator.http2Port) (the sandbox; production \(emulator.productionHTTP2Port)), CA \(emulator.caPath) (the server certificate names localhost and 127.0.0.1)",
            "\(lines)")
        #expect(lines.last == "web inbox: http://127.0.0.1:\(emulator.adminPort)/ once serve runs", "\(lines)")
        try await emulator.stop()
        try fresh.remove()
    }
}

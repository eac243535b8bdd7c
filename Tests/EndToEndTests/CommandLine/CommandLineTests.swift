import APNsTestSupport
import Foundation
import Testing

/// The `apns-emulator` executable as a person runs it.
@Suite("Command line")
struct CommandLineTests {
    static let token = String(repeating: "f6", count: 32)

    @Test("certs generate writes a CA and a localhost certificate that verifies against it, keys private")
    func certsGenerate() async throws {
        let directory = try TemporaryDirectory()
        let out = directory.appending("made")
        let result = try await Subprocess.run(Subprocess.emulatorExecutable, ["certs", "generate", "--out", out])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("\(out)/ca.pem"))
        for name in ["ca.pem", "ca-key.pem", "server.pem", "server-key.pem"] {
            #expect(FileManager.default.fileExists(atPath: "\(out)/\(name)"), "\(name)")
        }
        for key in ["ca-key.pem", "server-key.pem"] {
            let attributes = try FileManager.default.attributesOfItem(atPath: "\(out)/\(key)")
            #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600, "\(key)")
        }
        // An independent TLS implementation accepts the chain for each name.
        for name in ["localhost", "127.0.0.1", "::1"] {
            let flag = name.contains(where: \.isLetter) && !name.contains(":") ? "-verify_hostname" : "-verify_ip"
            let verify = try await Subprocess.run(
                "openssl", ["verify", "-purpose", "sslserver", flag, name, "-CAfile", "\(out)/ca.pem", "\(out)/server.pem"]
            )
            #expect(verify.status == 0, "\(name): \(verify.stdout) \(verify.stderr)")
        }
        try directory.remove()
    }

    @Test("environment twins stand in for flags; SIGTERM shuts down cleanly and keeps what was accepted")
    func environmentAndSigterm() async throws {
        let directory = try TemporaryDirectory()
        let emulator = try await EmulatorProcess.start(
            arguments: [],
            environment: [
                "APNS_EMULATOR_DATA_DIR": directory.appending("data"),
                "APNS_EMULATOR_CERTS_DIR": directory.appending("certs"),
                "APNS_EMULATOR_ENVIRONMENT": "production",
            ],
            output: directory.appending("emulator.log")
        )
        #expect(FileManager.default.fileExists(atPath: directory.appending("certs/ca.pem")))
        let client = try await HTTP2TestClient.connect(
            host: "127.0.0.1", port: emulator.http2Port, caPath: directory.appending("certs/ca.pem"))
        let response = try await client.push(token: Self.token)
        #expect(response.status == 200)
        #expect(response.header("apns-unique-id") == nil, "APNS_EMULATOR_ENVIRONMENT=production was ignored")

        let ended = await emulator.kill(SIGTERM)
        #expect(ended.signal == nil)
        #expect(ended.status == 0)
        let events = try await client.waitForEvents { $0.goAway != nil }
        #expect(events.goAway?.debugData == #"{"reason":"Shutdown"}"#)

        let restarted = try await RunningEmulator.start(directory: directory)
        let items = try await restarted.queued(Self.token)
        #expect(items.count == 1)
        try await restarted.stop()
        try directory.remove()
    }

    @Test("a bad flag or twin value is refused with a clear message")
    func badValues() async throws {
        let flag = try await Subprocess.run(Subprocess.emulatorExecutable, ["serve", "--durability", "sometimes"])
        #expect(flag.status != 0)
        #expect(flag.stderr.contains("durability"))
        let port = try await Subprocess.run(
            "env", ["APNS_EMULATOR_HTTP2_PORT=70000", Subprocess.emulatorExecutable]
        )
        #expect(port.status != 0)
        #expect(port.stderr.contains("--http2-port must be between 0 and 65535"))
        // A cluster's peers: only for a shard, one address per shard, each host:port.
        let refusals = [
            (["--cluster-peers", "127.0.0.1:1,127.0.0.1:2"], "--cluster-peers needs --shard K/N"),
            (
                ["--shard", "0/3", "--cluster-peers", "127.0.0.1:1,127.0.0.1:2"],
                "--cluster-peers names 2 addresses; --shard 0/3 needs one per shard"
            ),
            (["--shard", "0/2", "--cluster-peers", "127.0.0.1:1,nowhere"], "--cluster-peers: nowhere is not host:port"),
        ]
        for (arguments, message) in refusals {
            let refused = try await Subprocess.run(Subprocess.emulatorExecutable, ["serve"] + arguments)
            #expect(refused.status != 0 && refused.stderr.contains(message), "\(arguments): \(refused.stderr)")
        }
        let twin = try await Subprocess.run(
            "env", ["APNS_EMULATOR_CLUSTER_PEERS=127.0.0.1:1", Subprocess.emulatorExecutable, "serve"])
        #expect(
            twin.status != 0 && twin.stderr.contains("--cluster-peers needs --shard K/N"),
            "the twin stands in for the flag: \(twin.stderr)")
    }
}

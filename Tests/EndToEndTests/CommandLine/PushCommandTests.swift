import APNsCore
import APNsTestSupport
import Foundation
import Testing

/// `apns-emulator push` from the built binary against a running emulator, and the `.apns` files it
/// reads and the admin API exports.
@Suite("apns-emulator push")
struct PushCommandTests {
    static let topic = "com.example.push"
    static let token = String(repeating: "5e", count: 32)

    func push(_ emulator: RunningEmulator, _ arguments: [String], environment: [String] = []) async throws -> Subprocess.Output {
        let command =
            [Subprocess.emulatorExecutable, "push", "--http2-port", String(emulator.http2Port), "--ca", emulator.caPath]
            + arguments
        return try await Subprocess.run("env", environment + command)
    }

    @Test("a JSON argument: 200 with apns-id and apns-unique-id printed, exit 0; journaled with its headers")
    func accepted() async throws {
        try await withEmulator { emulator in
            let run = try await self.push(
                emulator,
                [
                    "--token", Self.token, "--topic", Self.topic, "--type", "alert", "--priority", "5", "--collapse-id", "c1",
                    "--admin-port", String(emulator.adminPort), #"{"aps":{"alert":"Hi"}}"#,
                ])
            #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
            let lines = run.stdout.split(separator: "\n").map(String.init)
            // No device holds the token: after a second the phone still has not seen it.
            #expect(lines.first == "200 OK · phone: waiting for the device")
            let uniqueID = try #require(lines.first { $0.hasPrefix("apns-unique-id: ") }?.dropFirst(16))
            let item = try await emulator.adminObject("/api/v1/notifications/\(uniqueID)")
            #expect(
                item["topic"] as? String == Self.topic && item["priority"] as? Int == 5 && item["collapseId"] as? String == "c1")
            #expect(lines.contains { $0 == "apns-id: \(item["apnsId"] as? String ?? "?")" })
        }
    }

    @Test("a reader that stops early (| true) does not crash the command: the push is sent, exit 0")
    func closedPipe() async throws {
        try await withEmulator { emulator in
            let command = [
                Subprocess.emulatorExecutable, "push", "--http2-port", String(emulator.http2Port), "--ca", emulator.caPath,
                "--token", Self.token, "--topic", Self.topic, #"{"aps":{"alert":"piped"}}"#,
            ]
            let quoted = command.map { "'" + $0.replacingOccurrences(of: "'", with: #"'\''"#) + "'" }.joined(separator: " ")
            // `true` exits without reading, so the command's first line meets a closed pipe.
            let run = try await Subprocess.run("bash", ["-c", "set -o pipefail; \(quoted) | true"])
            #expect(run.status == 0, "\(run.stdout)\(run.stderr.prefix(400))")
            #expect(try await emulator.journal("token=\(Self.token)").count == 1)
        }
    }

    @Test("a refusal prints APNs' status, reason and detail, and exits 1")
    func refused() async throws {
        try await withEmulator { emulator in
            let priority = try await self.push(emulator, ["--token", Self.token, "--topic", Self.topic, "--priority", "7", "{}"])
            #expect(priority.status == 1 && priority.stdout.hasPrefix("400 BadPriority"), "\(priority.stdout)")
            let broken = try await self.push(emulator, ["--token", Self.token, "--topic", Self.topic, "{nope"])
            #expect(
                broken.status == 1 && broken.stdout.hasPrefix("400 PayloadEmpty")
                    && broken.stdout.contains("detail: payload is not a JSON object"), "\(broken.stdout)")
            // The journal keeps the detail the provider got.
            let journaled = try await emulator.journal("status=rejected")
            #expect(
                journaled.first?["detail"] as? String == "payload is not a JSON object: expected a member name at offset 1",
                "\(journaled.first ?? [:])")
            // The request's own figure first (issue 70).
            let detail = journaled.last?["detail"] as? String ?? ""
            #expect(detail.hasPrefix(#"apns-priority was "7"; APNs takes 10"#), "\(detail)")
        }
    }

    @Test(".apns files: exported by GET /api/v1/notifications/<id>.apns, pushed again with --file (its bundle is the topic)")
    func simulatorFiles() async throws {
        try await withEmulator { emulator in
            let first = try await self.push(
                emulator, ["--token", Self.token, "--topic", Self.topic, #"{"aps":{"alert":"Again"},"k":1}"#])
            let uniqueID = try #require(
                first.stdout.split(separator: "\n").first { $0.hasPrefix("apns-unique-id: ") }?.dropFirst(16))
            let exported = try await emulator.admin("/api/v1/notifications/\(uniqueID).apns")
            #expect(exported.status == 200)
            let file = try #require(try exported.json() as? [String: Any])
            #expect(file["Simulator Target Bundle"] as? String == Self.topic && file["k"] as? Int == 1)
            let path = emulator.directory.appending("again.apns")
            try Data(exported.body).write(to: URL(fileURLWithPath: path))
            let again = try await self.push(emulator, ["--token", Self.token, "--file", path])
            #expect(again.status == 0, "\(again.stdout)\(again.stderr)")
            let second = try #require(
                again.stdout.split(separator: "\n").first { $0.hasPrefix("apns-unique-id: ") }?.dropFirst(16))
            let item = try await emulator.adminObject("/api/v1/notifications/\(second)")
            #expect(item["topic"] as? String == Self.topic)
            #expect(
                (item["payload"] as? [String: Any])?["Simulator Target Bundle"] == nil
                    && (item["payload"] as? [String: Any])?["k"] as? Int == 1)
            #expect(try await emulator.admin("/api/v1/notifications/nope.apns").status == 404)

            // As `xcrun simctl push <device> <bundle> file.apns`: a positional argument naming a file is read.
            let positional = try await self.push(emulator, ["--token", Self.token, path])
            #expect(positional.status == 0, "\(positional.stdout)\(positional.stderr)")
            let third = try #require(
                positional.stdout.split(separator: "\n").first { $0.hasPrefix("apns-unique-id: ") }?.dropFirst(16))
            #expect(try await emulator.adminObject("/api/v1/notifications/\(third)")["topic"] as? String == Self.topic)
            let json = emulator.directory.appending("payload.json")
            try #"{"aps":{"alert":"From a file"}}"#.write(toFile: json, atomically: true, encoding: .utf8)
            #expect(try await self.push(emulator, ["--token", Self.token, "--topic", Self.topic, json]).status == 0)
            // Neither JSON nor a file: an error naming both, and nothing sent.
            let neither = try await self.push(emulator, ["--token", Self.token, "--topic", Self.topic, "missing.apns"])
            #expect(
                neither.status != 0 && neither.stderr.contains("neither JSON nor a file")
                    && neither.stderr.contains(".apns file"), "\(neither.stderr)")
            #expect(try await emulator.journal("token=\(Self.token)").count == 4)
        }
    }

    @Test("the payload from standard input; --count and --concurrency print a summary; the port from the environment")
    func stdinAndLoad() async throws {
        try await withEmulator { emulator in
            let input = emulator.directory.appending("payload.json")
            try #"{"aps":{"alert":"from stdin"}}"#.write(toFile: input, atomically: true, encoding: .utf8)
            let piped = try BackgroundProcess(
                Subprocess.emulatorExecutable,
                [
                    "push", "--http2-port", String(emulator.http2Port), "--ca", emulator.caPath, "--token", Self.token, "--topic",
                    Self.topic, "-",
                ],
                output: emulator.directory.appending("stdin.log"), input: input
            )
            #expect(await piped.wait() == 0, "\(piped.lines)")
            #expect(
                try await emulator.journal("token=\(Self.token)").first.flatMap {
                    ($0["payload"] as? [String: Any])?["aps"] as? [String: Any]
                }?["alert"] as? String == "from stdin")

            let load = try await Subprocess.run(
                "env",
                [
                    "APNS_EMULATOR_HTTP2_PORT=\(emulator.http2Port)", Subprocess.emulatorExecutable, "push", "--ca",
                    emulator.caPath,
                    "--token", Self.token, "--topic", Self.topic, "--count", "60", "--concurrency", "8", "{}",
                ])
            #expect(load.status == 0, "\(load.stdout)\(load.stderr)")
            #expect(
                load.stdout.hasPrefix("60 sent in ") && load.stdout.contains("8 in flight") && load.stdout.contains("200 OK x60"),
                "\(load.stdout)")
            #expect(try await emulator.journal("token=\(Self.token)&limit=1000").count == 61)
        }
    }

    @Test("token authentication with --key --key-id --team-id under --auth strict; without it, 403")
    func tokenAuthentication() async throws {
        try await withEmulator(configure: { $0.auth = .strict }) { emulator in
            let key = try emulator.registerKey(keyID: "PUSHKEY123", teamID: "TEAM123456", topics: [Self.topic])
            let p8 = emulator.directory.appending("AuthKey_PUSHKEY123.p8")
            try key.p8.write(toFile: p8, atomically: true, encoding: .utf8)
            let signed = try await self.push(
                emulator,
                [
                    "--token", Self.token, "--topic", Self.topic, "--key", p8, "--key-id", "PUSHKEY123", "--team-id",
                    "TEAM123456", "{}",
                ])
            #expect(signed.status == 0 && signed.stdout.hasPrefix("200 OK"), "\(signed.stdout)\(signed.stderr)")
            let anonymous = try await self.push(emulator, ["--token", Self.token, "--topic", Self.topic, "{}"])
            #expect(anonymous.status == 1 && anonymous.stdout.hasPrefix("403 MissingProviderToken"), "\(anonymous.stdout)")
        }
    }

    @Test("errors in words: a missing CA names the path and the folder; a refused connection names host and port")
    func errors() async throws {
        let missing = try await Subprocess.run(
            Subprocess.emulatorExecutable, ["push", "--ca", "/nowhere/ca.pem", "--token", Self.token, "{}"])
        #expect(
            missing.status != 0 && missing.stderr.contains("no CA at /nowhere/ca.pem") && missing.stderr.contains("relative to"),
            "\(missing.stderr)")
        try await withEmulator { emulator in
            let closed = try await Subprocess.run(
                Subprocess.emulatorExecutable,
                ["push", "--ca", emulator.caPath, "--http2-port", "1", "--token", Self.token, "{}"])
            #expect(
                closed.status != 0 && closed.stderr.contains("127.0.0.1:1") && closed.stderr.contains("connection refused"),
                "\(closed.stderr)")
            let both = try await Subprocess.run(
                Subprocess.emulatorExecutable, ["push", "--token", Self.token, "--file", "x.apns", "{}"])
            #expect(both.status != 0 && both.stderr.contains("not both"), "\(both.stderr)")
        }
    }

    @Test("--version on every command, with the size of the binary that runs")
    func versions() async throws {
        let size = try #require(
            try FileManager.default.attributesOfItem(atPath: Subprocess.emulatorExecutable)[.size] as? NSNumber
        ).int64Value
        let megabytes = String(format: "%.1f MB", Double(size) / 1_000_000)
        for command in [
            [], ["serve"], ["push"], ["device"], ["certs"], ["certs", "generate"], ["certs", "provider"], ["keys"],
            ["keys", "create"], ["keys", "import"], ["keys", "token"],
        ] {
            let run = try await Subprocess.run(Subprocess.emulatorExecutable, command + ["--version"])
            #expect(
                run.status == 0 && run.stdout == "0.19.0 (this binary: \(megabytes))\n", "\(command): \(run.stdout)\(run.stderr)")
        }
    }

    @Test(
        "device: the default device id is made once and kept; errors name the CA's path and folder, the refused host and port, the TLS failure's port"
    )
    func deviceWords() async throws {
        try await withEmulator { emulator in
            let config = emulator.directory.appending("config")
            for _ in 0..<2 {
                let run = try await Subprocess.run(
                    "env",
                    [
                        "XDG_CONFIG_HOME=\(config)", Subprocess.emulatorExecutable, "device", "--topic", Self.topic,
                        "--device-port", String(emulator.devicePort), "--ca", emulator.caPath, "--count", "0",
                    ])
                #expect(run.status == 0, "\(run.stderr)")
            }
            let stored = try String(contentsOfFile: config + "/apns-emulator/device-id", encoding: .utf8).trimmingCharacters(
                in: .whitespacesAndNewlines)
            let devices = try #require(try await emulator.admin("/api/v1/devices").json() as? [[String: Any]])
            #expect(devices.count == 2 && devices.allSatisfy { $0["deviceId"] as? String == stored }, "\(devices)")

            let device = [Subprocess.emulatorExecutable, "device", "--topic", Self.topic, "--device-id", "words"]
            let missing = try await Subprocess.run("env", device + ["--ca", "nowhere/ca.pem"])
            #expect(missing.status != 0 && missing.stderr.contains("no CA at nowhere/ca.pem (relative to "), "\(missing.stderr)")
            let refused = try await Subprocess.run("env", device + ["--ca", emulator.caPath, "--device-port", "1"])
            #expect(refused.status != 0 && refused.stderr.contains("127.0.0.1:1: connection refused"), "\(refused.stderr)")
            let plain = try await Subprocess.run(
                "env", device + ["--ca", emulator.caPath, "--device-port", String(emulator.adminPort)])
            #expect(
                plain.status != 0
                    && plain.stderr.contains("could not speak TLS with the device listener at 127.0.0.1:\(emulator.adminPort)"),
                "\(plain.stderr)")
        }
    }

    @Test("TLS handshake failures are logged with their cause: plain HTTP to a TLS port, a client that does not trust the CA")
    func handshakeLog() async throws {
        let directory = try TemporaryDirectory()
        let log = directory.appending("serve.log")
        let emulator = try await EmulatorProcess.start(
            arguments: [
                "--log-level", "info", "--data-dir", directory.appending("data"), "--certs-dir", directory.appending("certs"),
            ],
            output: log
        )
        _ = try await Subprocess.run("curl", ["-s", "-m", "5", "http://127.0.0.1:\(emulator.http2Port)/"])
        _ = try await Subprocess.run(
            "curl", ["-s", "-m", "5", "--http2", "https://127.0.0.1:\(emulator.http2Port)/3/device/\(Self.token)"])
        let lines = { ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init) }
        let plain = await eventually {
            lines().contains { $0.contains("TLS handshake failed: the client sent plain HTTP to a TLS port") }
        }
        #expect(plain, "\(lines())")
        let untrusted = await eventually {
            lines().contains {
                $0.contains("TLS handshake failed: the client")
                    && $0.contains("does not trust the emulator's certificate (give it certs/ca.pem)")
            }
        }
        #expect(untrusted, "\(lines())")
        _ = await emulator.kill(SIGTERM)
        try directory.remove()
    }
}

import APNsTestSupport
import Crypto
import Foundation
import Testing

/// Starting `serve` for tests and scripts: the ports file, a throwaway store, and one emulator per
/// data directory.
@Suite("serve: starting it")
struct ServeStartTests {
    /// Starts `serve` on port 0 everywhere with `arguments`; returns it once `file` holds the ports.
    func start(_ directory: TemporaryDirectory, _ arguments: [String], portsFile: String) throws -> BackgroundProcess {
        try BackgroundProcess(
            "env",
            [
                Subprocess.emulatorExecutable, "serve", "--http2-port", "0", "--production-http2-port", "0", "--admin-port", "0",
                "--device-port", "0",
                "--gateway-port", "0", "--feedback-port", "0", "--channels-port", "0", "--web-push-port", "0", "--certs-dir",
                directory.appending("certs"), "--ports-file", portsFile,
            ] + arguments,
            output: directory.appending("serve-\(UUID().uuidString.prefix(6)).log")
        )
    }

    func ports(_ path: String) async throws -> [String: Any] {
        let written = await eventually(timeout: .seconds(30)) { FileManager.default.fileExists(atPath: path) }
        try #require(written, "no ports file at \(path)")
        return try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
    }

    @Test("--exit-on-stdin-close: the end of standard input shuts the emulator down gracefully (exit 0), saying why")
    func exitOnStdinClose() async throws {
        let directory = try TemporaryDirectory()
        // /dev/null ends at once: the fixtures hold a pipe instead, which ends when the test runner does.
        let serve = try self.start(
            directory, ["--data-dir", directory.appending("data"), "--exit-on-stdin-close"], portsFile: directory.appending("p"))
        #expect(await serve.wait() == 0)
        #expect(serve.lines.contains { $0.contains("standard input closed: shutting down") }, "\(serve.lines)")
        try directory.remove()
    }

    @Test(
        "issue 50: start-up says each listener once (no log line doubles it at the default level), in a newcomer's order, then the web inbox and what the seed made; a port clash prints one error and no listener"
    )
    func startUpLines() async throws {
        let directory = try TemporaryDirectory()
        let output = directory.appending("serve.log")
        let seed = Checkout.root.appendingPathComponent("docs/seeds/typical-app.yaml").path
        let serve = try await EmulatorProcess.start(
            arguments: [
                "--log-level", "info", "--data-dir", directory.appending("data"), "--certs-dir", directory.appending("certs"),
                // The seed's key goes to a key store of the test's own, not the checkout's keys/.
                "--keys", directory.appending("keys"), "--seed", seed,
            ], output: output)
        var text = ""
        let seeded = await eventually(timeout: .seconds(30)) {
            text = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
            return text.contains("seeded from")
        }
        #expect(seeded, "no seed line: \(text)")
        let lines = text.split(separator: "\n").map(String.init)
        let listeners = lines.filter { $0.hasPrefix("apns-emulator: ") && $0.contains(" on ") && $0.contains("://") }
        #expect(listeners.count == 8, "\(lines)")
        #expect(
            listeners.prefix(3).map { $0.split(separator: " on ")[0] } == [
                "apns-emulator: HTTP/2 provider API", "apns-emulator: HTTP/2 provider API, production (api.push.apple.com)",
                "apns-emulator: admin API",
            ],
            "\(listeners)")
        // Both environments, named on the first line (issue 72).
        #expect(lines.first?.contains("sandbox (development) and production endpoints") == true, "\(lines.first ?? "")")
        #expect(!text.contains(" listening"), "the log's listening lines double the console's at info: \(text)")
        // A first start makes the development CA: said in serve's own words, on its first line (issue 70).
        #expect(
            lines.first?.hasPrefix("apns-emulator: durable store in ") == true && lines.first?.contains("made just now") == true,
            "\(lines.first ?? "")")
        #expect(
            lines.contains(
                "apns-emulator: web inbox at http://127.0.0.1:\(serve.adminPort)/ (every push as it arrives, and the phone's screen)"
            ))
        #expect(lines.contains("apns-emulator: seeded from \(seed): 1 device, 1 app, 1 provider key, 1 fault rule"), "\(lines)")

        // Another emulator on the same HTTP/2 port: one error naming the flag, no listener announced.
        let clash = try await Subprocess.run(
            Subprocess.emulatorExecutable,
            [
                "serve", "--http2-port", String(serve.http2Port), "--production-http2-port", "0", "--admin-port", "0",
                "--device-port", "0", "--gateway-port", "0",
                "--feedback-port", "0", "--channels-port", "0", "--web-push-port", "0", "--data-dir",
                directory.appending("other"), "--certs-dir",
                directory.appending("certs"),
            ])
        #expect(clash.status != 0)
        #expect(
            clash.stderr.contains("the port is in use") && clash.stderr.contains("choose another with --http2-port"),
            "\(clash.stderr)")
        #expect(!clash.stdout.contains(" on "), "no listener is announced before the clash: \(clash.stdout)")
        _ = await serve.kill(SIGTERM)
        try directory.remove()
    }

    @Test("--ports-file holds every listener's port once all are bound; they answer")
    func portsFile() async throws {
        let directory = try TemporaryDirectory()
        let file = directory.appending("ports.json")
        let serve = try self.start(directory, ["--data-dir", directory.appending("data")], portsFile: file)
        let ports = try await self.ports(file)
        for front in ["http2", "admin", "device", "gateway", "feedback"] {
            #expect((ports[front] as? Int ?? 0) > 0, "\(front): \(ports)")
        }
        #expect(ports["host"] as? String == "127.0.0.1")
        let health = try await AdminTestClient.request(
            host: "127.0.0.1", port: try #require(ports["admin"] as? Int), method: "GET", path: "/healthz", body: nil)
        #expect(health.status == 200)
        _ = Foundation.kill(serve.pid, SIGTERM)
        #expect(await serve.wait() == 0)
        try directory.remove()
    }

    @Test("a second emulator on the same data directory exits, naming the one that holds it")
    func oneEmulatorPerDirectory() async throws {
        let directory = try TemporaryDirectory()
        let data = directory.appending("data")
        let first = try self.start(directory, ["--data-dir", data], portsFile: directory.appending("first.json"))
        _ = try await self.ports(directory.appending("first.json"))
        let second = try self.start(directory, ["--data-dir", data], portsFile: directory.appending("second.json"))
        #expect(await second.wait() != 0)
        let said = second.lines.joined(separator: "\n")
        #expect(
            said.contains("cannot use data directory \(data)")
                && said.contains("another emulator (pid \(first.pid)) is using it"), "\(said)")
        #expect(!FileManager.default.fileExists(atPath: directory.appending("second.json")))
        _ = Foundation.kill(first.pid, SIGTERM)
        #expect(await first.wait() == 0)
        // Once the first has stopped, the directory is free again.
        let third = try self.start(directory, ["--data-dir", data], portsFile: directory.appending("third.json"))
        _ = try await self.ports(directory.appending("third.json"))
        _ = Foundation.kill(third.pid, SIGTERM)
        #expect(await third.wait() == 0)
        try directory.remove()
    }

    @Test("--ephemeral keeps the store in a temporary directory that is gone after exit; nothing carries over")
    func ephemeral() async throws {
        let directory = try TemporaryDirectory()
        var stores: [String] = []
        for run in 0..<2 {
            let file = directory.appending("ports-\(run).json")
            let serve = try self.start(directory, ["--ephemeral"], portsFile: file)
            let ports = try await self.ports(file)
            let admin = try #require(ports["admin"] as? Int)
            let store = try #require(
                serve.lines.first { $0.contains("store in ") }.flatMap { line in
                    line.range(of: "store in ").map { String(line[$0.upperBound...].prefix { $0 != "," }) }
                })
            #expect(FileManager.default.fileExists(atPath: store) && !store.hasPrefix(directory.path))
            stores.append(store)
            let journal = try await AdminTestClient.request(
                host: "127.0.0.1", port: admin, method: "GET", path: "/api/v1/notifications", body: nil)
            #expect((try journal.json() as? [String: Any])?["total"] as? Int == 0, "run \(run) inherited a journal")
            let registered = try await AdminTestClient.request(
                host: "127.0.0.1", port: admin, method: "POST", path: "/api/v1/devices", body: #"{"topic": "a.b"}"#)
            #expect(registered.status == 201)
            _ = Foundation.kill(serve.pid, SIGTERM)
            #expect(await serve.wait() == 0)
            #expect(!FileManager.default.fileExists(atPath: store), "\(store) was left behind")
        }
        #expect(stores[0] != stores[1])
        try directory.remove()
    }

    @Test(
        "--config (YAML) seeds keys, devices with their apps, and fault rules before the ports file appears; a bad one stops the start, naming the entry"
    )
    func configFile() async throws {
        let directory = try TemporaryDirectory()
        let key = P256.Signing.PrivateKey()
        try key.pemRepresentation.write(toFile: directory.appending("AuthKey_CFGKEY1234.p8"), atomically: true, encoding: .utf8)
        let token = String(repeating: "c0", count: 32)
        let config = directory.appending("emulator.yaml")
        try """
        keys:
          - {keyId: CFGKEY1234, teamId: TEAM123456, p8: AuthKey_CFGKEY1234.p8, topics: [com.example.config], environment: sandbox}
        devices:
          - topic: com.example.config
            token: \(token)
            app:
              authorization: {status: authorized, alert: true, sound: false, badge: true}
          - topic: com.example.other
        faults:
          - match: {topic: com.example.flaky}
            action: {type: respond, reason: TooManyRequests}
            times: 2
        """.write(toFile: config, atomically: true, encoding: .utf8)
        let file = directory.appending("ports.json")
        let serve = try self.start(
            directory, ["--data-dir", directory.appending("data"), "--keys", directory.appending("keys"), "--config", config],
            portsFile: file)
        let admin = try #require(try await self.ports(file)["admin"] as? Int)
        func get(_ path: String) async throws -> Any {
            try await AdminTestClient.request(host: "127.0.0.1", port: admin, path: path).json()
        }
        let devices = try #require(try await get("/api/v1/devices") as? [[String: Any]])
        #expect(Set(devices.compactMap { $0["topic"] as? String }) == ["com.example.config", "com.example.other"])
        let app = try #require(try await get("/api/v1/devices/\(token)/app") as? [String: Any])
        #expect((app["authorization"] as? [String: Any])?["sound"] as? Bool == false)
        let faults = try #require(try await get("/api/v1/faults") as? [[String: Any]])
        #expect(faults.count == 1 && faults.first?["times"] as? Int == 2)
        #expect(FileManager.default.fileExists(atPath: directory.appending("keys/CFGKEY1234.json")))
        // Apple's words: a sandbox key, topic-specific, is kept as such.
        let stored = try String(contentsOfFile: directory.appending("keys/CFGKEY1234.json"), encoding: .utf8)
        #expect(stored.contains("development") && stored.contains("com.example.config"), "\(stored)")
        _ = Foundation.kill(serve.pid, SIGTERM)
        #expect(await serve.wait() == 0)

        // Started again on the same store: the fixed token is already there, which is fine.
        let again = try self.start(
            directory, ["--data-dir", directory.appending("data"), "--keys", directory.appending("keys"), "--config", config],
            portsFile: directory.appending("again.json"))
        _ = try await self.ports(directory.appending("again.json"))
        _ = Foundation.kill(again.pid, SIGTERM)
        #expect(await again.wait() == 0)

        try await self.badConfigFiles(directory)
    }

    /// A bad --config stops the start, naming the entry at fault.
    private func badConfigFiles(_ directory: TemporaryDirectory) async throws {
        let bad = directory.appending("bad.json")
        try #"{"faults": [{"action": "reset"}, {"match": {"token": "nope"}, "action": "reset"}]}"#.write(
            toFile: bad, atomically: true, encoding: .utf8)
        let refused = try self.start(
            directory, ["--data-dir", directory.appending("data2"), "--config", bad],
            portsFile: directory.appending("bad-ports.json"))
        #expect(await refused.wait() != 0)
        let said = refused.lines.joined(separator: "\n")
        #expect(said.contains("faults[1]") && said.contains("match.token must be a device token"), "\(said)")
        let unknown = directory.appending("unknown.yaml")
        try "fault:\n  - action: reset\n".write(toFile: unknown, atomically: true, encoding: .utf8)
        let typo = try self.start(
            directory, ["--data-dir", directory.appending("data3"), "--config", unknown],
            portsFile: directory.appending("typo.json"))
        #expect(await typo.wait() != 0)
        #expect(typo.lines.joined().contains("unknown section fault"), "\(typo.lines)")
        let environment = directory.appending("environment.yaml")
        try "keys:\n  - {keyId: CFGKEY1234, teamId: TEAM123456, p8: AuthKey_CFGKEY1234.p8, environment: staging}\n".write(
            toFile: environment, atomically: true, encoding: .utf8)
        let staging = try self.start(
            directory, ["--data-dir", directory.appending("data4"), "--config", environment],
            portsFile: directory.appending("staging.json"))
        #expect(await staging.wait() != 0)
        #expect(staging.lines.joined().contains("sandbox, production or both"), "\(staging.lines)")
        try directory.remove()
    }
}

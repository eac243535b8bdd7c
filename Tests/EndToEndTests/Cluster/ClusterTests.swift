import APNsCore
import APNsDeviceClient
import APNsServer
import APNsTestSupport
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Shards behind HAProxy (issue 29, first part): three emulators (`--shard K/3`) sharing one CA,
/// the configuration `apns-emulator cluster haproxy-config` writes, and Debian's haproxy routing
/// each provider stream by its token over HTTP/2 and TLS on both sides.
@Suite("Shards behind HAProxy")
struct ClusterTests {
    static let topic = "com.example.cluster"

    /// `count` in-process shards sharing one CA and server certificate (and, `strict`, one key store).
    static func shards(_ count: Int, sharing shared: TemporaryDirectory, strict: Bool = false) async throws -> [RunningEmulator] {
        var shards: [RunningEmulator] = []
        for index in 0..<count {
            shards.append(
                try await RunningEmulator.start { configuration in
                    configuration.shard = Shard(index: index, count: count)
                    if strict {
                        configuration.auth = .strict
                        configuration.keysDirectory = shared.appending("keys")
                    }
                    configuration.certificatesDirectory = shared.appending("certs")
                    configuration.certificatePath = shared.appending("certs/server.pem")
                    configuration.privateKeyPath = shared.appending("certs/server-key.pem")
                })
        }
        return shards
    }

    /// The production frontend: a TestFlight build's token is taken there, and refused at the
    /// sandbox frontend, by the shard that owns it (HAProxy marks the request for production by
    /// its :authority).
    static func productionFrontend(_ port: Int, shard: RunningEmulator, sandbox: HTTP2TestClient, ca: String) async throws {
        let release = try #require(
            try await shard.adminObject(
                "/api/v1/devices", method: "POST", body: #"{"topic": "\#(Self.topic)", "environment": "production"}"#,
                status: 201)["token"] as? String)
        let production = try await HTTP2TestClient.connect(host: "127.0.0.1", port: port, caPath: ca)
        let atProduction = try await production.push(token: release, topic: Self.topic)
        #expect(atProduction.status == 200, "\(atProduction.status) \(atProduction.reason ?? "")")
        #expect(try await sandbox.push(token: release, topic: Self.topic).reason == "BadDeviceToken")
        try await production.close()
        #expect(try await shard.journal("environment=production").map { $0["token"] as? String } == [release])
    }

    @Test(
        "three shards: each issues tokens it owns; pushes through HAProxy reach the owning shard; a shard down is 503 ServiceUnavailable, the others go on"
    )
    func routedByToken() async throws {
        let haproxy = HAProxy.path
        try #require(haproxy != nil, "haproxy is not installed: apt-get install haproxy (.ci/run installs it)")
        let shared = try TemporaryDirectory()
        let shards = try await Self.shards(3, sharing: shared)
        let (front, productionFront) = (try LoopbackPorts.free(), try LoopbackPorts.free())
        let out = shared.appending("haproxy")
        let hosts = shards.map { "127.0.0.1:\($0.http2Port)" }.joined(separator: ",")
        let written = try await Subprocess.run(
            Subprocess.emulatorExecutable,
            [
                "cluster", "haproxy-config", "--shards", "3", "--hosts", hosts, "--listen", "127.0.0.1:\(front)",
                "--production-listen", "127.0.0.1:\(productionFront)", "--certs-dir", shared.appending("certs"), "--out", out,
            ])
        #expect(written.status == 0, "\(written.stdout)\(written.stderr)")
        let balancer = try BackgroundProcess(
            try #require(haproxy), ["-db", "-f", out + "/haproxy.cfg"], output: shared.appending("haproxy.log"))
        defer { Foundation.kill(balancer.pid, SIGTERM) }

        // Each shard issues tokens that map to it; a provider pushes to each through HAProxy.
        var tokens: [String] = []
        for (index, shard) in shards.enumerated() {
            let token = try #require(
                try await shard.adminObject(
                    "/api/v1/devices", method: "POST", body: #"{"topic": "\#(Self.topic)"}"#, status: 201)["token"] as? String)
            #expect(Shard.index(of: try #require(DeviceToken(hex: token)), count: 3) == index)
            tokens.append(token)
        }
        var client: HTTP2TestClient?
        _ = await eventually {
            client = try? await HTTP2TestClient.connect(host: "127.0.0.1", port: front, caPath: shared.appending("certs/ca.pem"))
            return client != nil
        }
        let provider = try #require(client, "HAProxy did not listen: \(balancer.lines)")
        for token in tokens {
            let answer = try await provider.push(
                token: token, headers: [("apns-topic", Self.topic)], json: #"{"aps":{"alert":"through HAProxy"}}"#)
            #expect(answer.status == 200 && answer.header("apns-unique-id") != nil, "\(answer.status) \(answer.reason ?? "")")
        }
        for (index, shard) in shards.enumerated() {
            let journal = try await shard.journal()
            #expect(journal.map { $0["token"] as? String } == [tokens[index]], "shard \(index) holds its own token's push only")
        }
        try await Self.productionFrontend(
            productionFront, shard: shards[2], sandbox: provider, ca: shared.appending("certs/ca.pem"))

        // Shard 1 goes down: once HAProxy's check has marked it down (a second), its tokens get
        // HAProxy's 503 in APNs' shape; the others go on.
        try await shards[1].stop()
        #expect(await eventually { balancer.lines.contains { $0.contains("shard1 is DOWN") } }, "\(balancer.lines)")
        let down = try await provider.push(token: tokens[1], topic: Self.topic)
        #expect(down.status == 503 && down.reason == "ServiceUnavailable", "\(down.status) \(down.reason ?? "")")
        #expect(try await provider.push(token: tokens[0], topic: Self.topic).status == 200)
        #expect(try await provider.push(token: tokens[2], topic: Self.topic).status == 200)
        try await provider.close()
        for (index, shard) in shards.enumerated() where index != 1 { try await shard.stop() }
        try shared.remove()
    }
    @Test(
        "devices through HAProxy: one without a token reaches any shard and gets a token that shard owns; one naming s<K>.devices resumes shard K's token; pushes through HAProxy reach both"
    )
    func devicesBySNI() async throws {
        let haproxy = HAProxy.path
        try #require(haproxy != nil, "haproxy is not installed: apt-get install haproxy (.ci/run installs it)")
        let shared = try TemporaryDirectory()
        let shards = try await Self.shards(2, sharing: shared)
        let (front, deviceFront) = (try LoopbackPorts.free(), try LoopbackPorts.free())
        let out = shared.appending("haproxy")
        let written = try await Subprocess.run(
            Subprocess.emulatorExecutable,
            [
                "cluster", "haproxy-config", "--shards", "2", "--hosts",
                shards.map { "127.0.0.1:\($0.http2Port)" }.joined(separator: ","),
                "--device-hosts", shards.map { "127.0.0.1:\($0.devicePort)" }.joined(separator: ","), "--listen",
                "127.0.0.1:\(front)",
                "--device-listen", "127.0.0.1:\(deviceFront)", "--certs-dir", shared.appending("certs"), "--out", out,
            ])
        #expect(written.status == 0, "\(written.stdout)\(written.stderr)")
        let balancer = try BackgroundProcess(
            try #require(haproxy), ["-db", "-f", out + "/haproxy.cfg"], output: shared.appending("haproxy.log"))
        defer { Foundation.kill(balancer.pid, SIGTERM) }
        let ca = shared.appending("certs/ca.pem")

        // A new device asks for any shard; the token it gets belongs to the shard it reached.
        var newcomer: DeviceClient?
        _ = await eventually {
            newcomer = try? await DeviceClient.connect(
                host: "127.0.0.1", port: deviceFront, caPath: ca, deviceID: "newcomer", serverName: "devices.localhost")
            return newcomer != nil
        }
        let fresh = try #require(newcomer, "HAProxy did not take devices: \(balancer.lines)")
        let freshToken = try await fresh.register(topic: Self.topic)
        let owner = shards[Shard.index(of: freshToken, count: 2)]
        #expect(try await owner.adminObject("/api/v1/devices/\(freshToken.hex)/app")["deviceId"] as? String == "newcomer")

        // A token shard 1 issued, resumed by a device that names shard 1.
        let issued = try #require(
            try await shards[1].adminObject(
                "/api/v1/devices", method: "POST", body: #"{"topic": "\#(Self.topic)"}"#, status: 201)["token"] as? String)
        let returning = try await DeviceClient.connect(
            host: "127.0.0.1", port: deviceFront, caPath: ca, deviceID: "returning", serverName: "s1.devices.localhost")
        let token = try #require(DeviceToken(hex: issued))
        #expect(try await returning.resume([token]).first?.status == .resumed)

        let provider = try await HTTP2TestClient.connect(host: "127.0.0.1", port: front, caPath: ca)
        for (device, target) in [(fresh, freshToken), (returning, token)] {
            let answer = try await provider.push(
                token: target.hex, headers: [("apns-topic", Self.topic)], json: #"{"aps":{"alert":"through HAProxy"}}"#)
            #expect(answer.status == 200)
            let received = try await device.next()
            #expect(received.uniqueID == answer.header("apns-unique-id"))
        }
        try await provider.close()
        try await fresh.close()
        try await returning.close()
        for shard in shards { try await shard.stop() }
        try shared.remove()
    }

    @Test("shards sharing one --keys directory each take a provider-token key registered there after they started")
    func sharedKeys() async throws {
        let shared = try TemporaryDirectory()
        let shards = try await Self.shards(2, sharing: shared, strict: true)
        let key = try TestProviderKey.register(in: shared.appending("keys"), keyID: "SHAREDKEY1", teamID: "TEAM123456")
        let authorization = try key.authorization(issuedAt: Int64(Date().timeIntervalSince1970))
        for shard in shards {
            let provider = try await HTTP2TestClient.connect(
                host: "127.0.0.1", port: shard.http2Port, caPath: shared.appending("certs/ca.pem"))
            let answer = try await provider.push(
                token: shard.emulator.configuration.shard?.randomToken().hex ?? "",
                headers: [("apns-topic", Self.topic), ("authorization", authorization)])
            #expect(answer.status == 200, "\(answer.status) \(answer.reason ?? "")")
            try await provider.close()
        }
        for shard in shards { try await shard.stop() }
        try shared.remove()
    }

    @Test(
        "through HAProxy each provider connection keeps connections of its own to the shards: two providers with keys for different topics, strict, both 200 on every push"
    )
    func providersKeepTheirConnections() async throws {
        let haproxy = HAProxy.path
        try #require(haproxy != nil, "haproxy is not installed: apt-get install haproxy (.ci/run installs it)")
        let shared = try TemporaryDirectory()
        let shards = try await Self.shards(2, sharing: shared, strict: true)
        let front = try LoopbackPorts.free()
        let written = try await Subprocess.run(
            Subprocess.emulatorExecutable,
            [
                "cluster", "haproxy-config", "--shards", "2", "--hosts",
                shards.map { "127.0.0.1:\($0.http2Port)" }.joined(separator: ","),
                "--listen", "127.0.0.1:\(front)", "--certs-dir", shared.appending("certs"), "--out", shared.appending("haproxy"),
            ])
        #expect(written.status == 0, "\(written.stdout)\(written.stderr)")
        let balancer = try BackgroundProcess(
            try #require(haproxy), ["-db", "-f", shared.appending("haproxy/haproxy.cfg")], output: shared.appending("haproxy.log")
        )
        defer { Foundation.kill(balancer.pid, SIGTERM) }
        // Two apps, each with a key for its own topic only: a shard refuses one key's token on a
        // connection another key opened (UnrelatedKeyIdInToken), so each provider needs its own.
        let apps = ["com.example.first", "com.example.second"]
        let keys = try apps.enumerated().map {
            try TestProviderKey.register(
                in: shared.appending("keys"), keyID: "APPKEY000\($0.offset)", teamID: "TEAM123456", topics: [$0.element])
        }
        // One token per provider, reused as Apple asks (a new one on every request is TooManyProviderTokenUpdates).
        let now = Int64(Date().timeIntervalSince1970)
        let authorizations = try keys.map { try $0.authorization(issuedAt: now) }
        var providers: [HTTP2TestClient] = []
        for _ in apps {
            var client: HTTP2TestClient?
            _ = await eventually {
                client = try? await HTTP2TestClient.connect(
                    host: "127.0.0.1", port: front, caPath: shared.appending("certs/ca.pem"))
                return client != nil
            }
            providers.append(try #require(client, "HAProxy did not listen: \(balancer.lines)"))
        }
        let tokens = shards.compactMap { $0.emulator.configuration.shard?.randomToken().hex }
        var answers: [String] = []
        for round in 0..<10 {
            for (index, provider) in providers.enumerated() {
                let answer = try await provider.push(
                    token: tokens[round % tokens.count],
                    headers: [("apns-topic", apps[index]), ("authorization", authorizations[index])])
                answers.append("\(answer.status)\(answer.reason.map { " " + $0 } ?? "")")
            }
        }
        #expect(answers.allSatisfy { $0 == "200" }, "\(answers)")
        for provider in providers { try await provider.close() }
        for shard in shards { try await shard.stop() }
        try shared.remove()
    }
}

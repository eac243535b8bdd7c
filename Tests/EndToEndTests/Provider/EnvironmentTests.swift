import APNsCore
import APNsServer
import APNsTestSupport
import Foundation
import Testing

/// One emulator serves both environments, as Apple does: the sandbox on `--http2-port`, production
/// on `--production-http2-port`, and a request whose `:authority` is one of Apple's hosts is judged
/// in that host's environment. A token belongs to the environment of the app build that
/// registered it.
///
/// Sources: Apple, "Sending notification requests to APNs" (development server
/// api.sandbox.push.apple.com, production server api.push.apple.com); "Handling notification
/// responses from APNs" (400 BadDeviceToken: "Verify that the request contains a valid token and
/// that the token matches the environment"; 403 BadCertificateEnvironment, BadEnvironmentKeyInToken).
@Suite("Both environments: a sandbox and a production endpoint")
struct EnvironmentTests {
    static let topic = "com.example.app"

    /// Registers a token for `topic` through the admin API, as a build of `environment` would
    /// (nil: the request names none).
    static func register(_ emulator: RunningEmulator, environment: String?) async throws -> String {
        let named = environment.map { #", "environment": "\#($0)""# } ?? ""
        let response = try await emulator.admin(
            "/api/v1/devices", method: "POST", body: #"{"topic": "\#(Self.topic)"\#(named)}"#)
        let document = try #require(try response.json() as? [String: Any], "\(response.status) \(response.text)")
        #expect(response.status == 201, "\(document)")
        return try #require(document["token"] as? String)
    }

    static func client(_ emulator: RunningEmulator, port: Int, identity: ClientIdentity? = nil) async throws -> HTTP2TestClient {
        try await HTTP2TestClient.connect(host: "127.0.0.1", port: port, caPath: emulator.caPath, identity: identity)
    }

    @Test("a development token is taken at the sandbox endpoint and refused 400 BadDeviceToken at production, and the reverse")
    func tokensBelongToOne() async throws {
        try await withEmulator { emulator in
            #expect(emulator.productionHTTP2Port != 0 && emulator.productionHTTP2Port != emulator.http2Port)
            let development = try await Self.register(emulator, environment: nil)
            let production = try await Self.register(emulator, environment: "production")
            let sandbox = try await Self.client(emulator, port: emulator.http2Port)
            let live = try await Self.client(emulator, port: emulator.productionHTTP2Port)

            let atSandbox = try await sandbox.push(token: development, topic: Self.topic)
            #expect(atSandbox.status == 200)
            // Only the development environment answers with apns-unique-id.
            #expect(atSandbox.header("apns-unique-id") != nil)
            let atProduction = try await live.push(token: production, topic: Self.topic)
            #expect(atProduction.status == 200)
            #expect(atProduction.header("apns-unique-id") == nil)

            let wrongWay = try await live.push(token: development, topic: Self.topic)
            #expect(wrongWay.status == 400)
            #expect(wrongWay.reason == "BadDeviceToken")
            let otherWay = try await sandbox.push(token: production, topic: Self.topic)
            #expect(otherWay.status == 400)
            #expect(otherWay.reason == "BadDeviceToken")

            // The journal says why, in the words a developer needs.
            let rejected = try await emulator.journal("status=rejected")
            let details = rejected.compactMap { $0["detail"] as? String }
            #expect(details.count == 2, "\(rejected)")
            #expect(
                details.contains {
                    $0.contains("issued to a development build") && $0.contains("api.sandbox.push.apple.com")
                        && $0.contains("not at the production endpoint")
                }, "\(details)")
            #expect(details.contains { $0.contains("issued to a production build") && $0.contains("api.push.apple.com") })
            #expect(try await emulator.queued(development).count == 1)
            #expect(try await emulator.queued(production).count == 1)
            // Each accepted push says the environment it was sent to.
            for (token, environment) in [(development, "development"), (production, "production")] {
                let accepted = try await emulator.journal("token=\(token)&status=queued")
                #expect(accepted.map { $0["environment"] as? String } == [environment], "\(accepted)")
            }
        }
    }

    @Test("a request whose :authority is Apple's host is judged in that host's environment, on either port")
    func authorityNamesTheEnvironment() async throws {
        try await withEmulator { emulator in
            let development = try await Self.register(emulator, environment: "development")
            let production = try await Self.register(emulator, environment: "production")
            let sandboxPort = try await Self.client(emulator, port: emulator.http2Port)
            let toProduction = [(":authority", "api.push.apple.com:443")]
            #expect(try await sandboxPort.push(token: production, topic: Self.topic, headers: toProduction).status == 200)
            let refused = try await sandboxPort.push(token: development, topic: Self.topic, headers: toProduction)
            #expect(refused.status == 400 && refused.reason == "BadDeviceToken")

            let productionPort = try await Self.client(emulator, port: emulator.productionHTTP2Port)
            let toSandbox = [(":authority", "API.Sandbox.Push.Apple.com")]
            #expect(try await productionPort.push(token: development, topic: Self.topic, headers: toSandbox).status == 200)
            // Any other host leaves the port's environment.
            let elsewhere = [(":authority", "push.example.com")]
            #expect(try await productionPort.push(token: development, topic: Self.topic, headers: elsewhere).status == 400)
        }
    }

    @Test("GET /api/v1/tokens/<token> says whether a token is known, its environment, app, device, and whether still registered")
    func tokenCheck() async throws {
        try await withEmulator { emulator in
            let production = try await Self.register(emulator, environment: "production")
            var check = try #require(try await emulator.admin("/api/v1/tokens/\(production)").json() as? [String: Any])
            #expect(check["known"] as? Bool == true)
            #expect(check["environment"] as? String == "production")
            #expect(check["endpoint"] as? String == "api.push.apple.com")
            #expect(check["topic"] as? String == Self.topic)
            #expect(check["registered"] as? Bool == true)
            #expect((check["verdict"] as? String)?.contains("push it to the production endpoint") == true, "\(check)")

            let unregistered = try await emulator.admin("/api/v1/devices/\(production)/unregister", method: "POST")
            #expect(unregistered.status == 200)
            check = try #require(try await emulator.admin("/api/v1/tokens/\(production)").json() as? [String: Any])
            #expect(check["registered"] as? Bool == false)
            #expect(check["unregisteredAt"] as? String != nil)
            #expect((check["verdict"] as? String)?.contains("410 Unregistered") == true, "\(check)")

            let unknown = String(repeating: "5e", count: 32)
            check = try #require(try await emulator.admin("/api/v1/tokens/\(unknown)").json() as? [String: Any])
            #expect(check["known"] as? Bool == false)
            #expect(check["environment"] is NSNull)
            #expect((check["verdict"] as? String)?.contains("not a token this emulator issued") == true, "\(check)")

            #expect(try await emulator.admin("/api/v1/tokens/not-hex").status == 400)
            let refused = try await emulator.admin(
                "/api/v1/devices", method: "POST", body: #"{"topic": "\#(Self.topic)", "environment": "staging"}"#)
            #expect(refused.status == 400)
            #expect(refused.text.contains("production"), "\(refused.text)")
        }
    }

    @Test("a device registers as a production build; the device list and the token check say so")
    func deviceRegistersItsBuild() async throws {
        try await withEmulator { emulator in
            let device = try await emulator.device("build-device")
            let token = try await device.register(topic: Self.topic, environment: .production).hex
            let plain = try await device.register(topic: "com.example.other").hex
            let list = try #require(try await emulator.admin("/api/v1/devices").json() as? [[String: Any]])
            let environments = Dictionary(
                uniqueKeysWithValues: list.compactMap { item in
                    (item["token"] as? String).map { ($0, item["environment"] as? String ?? "-") }
                })
            #expect(environments[token] == "production")
            #expect(environments[plain] == "development")
            let live = try await Self.client(emulator, port: emulator.productionHTTP2Port)
            #expect(try await live.push(token: token, topic: Self.topic).status == 200)
            let received = try await device.next()
            #expect(received.token.hex == token)
            try await device.close()
        }
    }

    @Test("serve --environment production: tokens registered without one are production's, the main port serves production")
    func singleEnvironmentKept() async throws {
        try await withEmulator(configure: { $0.environment = .production }) { emulator in
            let token = try await Self.register(emulator, environment: nil)
            let check = try #require(try await emulator.admin("/api/v1/tokens/\(token)").json() as? [String: Any])
            #expect(check["environment"] as? String == "production")
            let main = try await Self.client(emulator, port: emulator.http2Port)
            #expect(try await main.push(token: token, topic: Self.topic).status == 200)
        }
    }

    @Test("certificates and keys are judged per endpoint: scoped to one, refused at the other; universal, taken at both")
    func credentialsPerEndpoint() async throws {
        try await withEmulator(configure: { $0.auth = .strict }) { emulator in
            let token = String(repeating: "ab", count: 32)  // open policy: a token no build registered
            let sandboxOnly = try emulator.providerIdentity(uid: Self.topic, environments: [.development])
            let refused = try await Self.client(emulator, port: emulator.productionHTTP2Port, identity: sandboxOnly)
                .push(token: token, topic: Self.topic)
            #expect(refused.status == 403 && refused.reason == "BadCertificateEnvironment")
            let universal = try emulator.providerIdentity(uid: Self.topic, environments: [.development, .production])
            for port in [emulator.http2Port, emulator.productionHTTP2Port] {
                let answer = try await Self.client(emulator, port: port, identity: universal).push(
                    token: token, topic: Self.topic)
                #expect(answer.status == 200, "port \(port): \(answer.status) \(answer.reason ?? "")")
            }

            let key = try emulator.registerKey(keyID: "PRODKEY123", environment: .production)
            let authorization = try key.authorization(issuedAt: emulator.nowSeconds)
            let atSandbox = try await Self.client(emulator, port: emulator.http2Port)
                .push(token: token, topic: Self.topic, authorization: authorization)
            #expect(atSandbox.status == 403 && atSandbox.reason == "BadEnvironmentKeyInToken", "\(atSandbox.reason ?? "")")
            let atProduction = try await Self.client(emulator, port: emulator.productionHTTP2Port)
                .push(token: token, topic: Self.topic, authorization: authorization)
            #expect(atProduction.status == 200)
            let rejected = try await emulator.journal("status=rejected")
            #expect(
                rejected.contains { ($0["detail"] as? String)?.contains("this request is for the sandbox endpoint") == true },
                "\(rejected)")
        }
    }

    @Test("a token keeps its environment across a restart")
    func restart() async throws {
        let directory = try TemporaryDirectory()
        var token = ""
        try await withEmulator(directory: directory) { emulator in
            token = try await Self.register(emulator, environment: "production")
        }
        try await withEmulator(directory: directory) { emulator in
            let check = try #require(try await emulator.admin("/api/v1/tokens/\(token)").json() as? [String: Any])
            #expect(check["environment"] as? String == "production")
            let sandbox = try await Self.client(emulator, port: emulator.http2Port)
            #expect(try await sandbox.push(token: token, topic: Self.topic).reason == "BadDeviceToken")
        }
        try directory.remove()
    }

    @Test("a seed says each app's build: its token is that environment's; a wrong word is refused naming the field")
    func seed() async throws {
        let directory = try TemporaryDirectory()
        let production = String(repeating: "a1", count: 32)
        let development = String(repeating: "b2", count: 32)
        let seed = directory.appending("seed.yaml")
        try """
        devices:
          - id: tester
            apps:
              - {topic: \(Self.topic), token: \(production), environment: production}
              - {topic: com.example.other, token: \(development)}
        """.write(toFile: seed, atomically: true, encoding: .utf8)
        let emulator = try await RunningEmulator.start(seed: try SeedDocument.read(seed))
        for (token, environment) in [(production, "production"), (development, "development")] {
            let check = try #require(try await emulator.admin("/api/v1/tokens/\(token)").json() as? [String: Any])
            #expect(check["environment"] as? String == environment, "\(check)")
        }
        try await emulator.stop()
        try "devices: [{id: d, apps: [{topic: t, environment: staging}]}]".write(toFile: seed, atomically: true, encoding: .utf8)
        #expect {
            _ = try SeedDocument.read(seed)
        } throws: { error in
            "\(error)".contains("apps[0].environment") && "\(error)".contains("production")
        }
        try directory.remove()
    }

    /// Apple, "Sending notification requests to APNs using the binary interface": status 8,
    /// invalid token; the gateway serves `--environment`'s environment.
    @Test("the binary gateway refuses a token of the other environment with status 8, and closes")
    func gateway() async throws {
        try await withEmulator(configure: { $0.environment = .production }) { emulator in
            let development = try await Self.register(emulator, environment: "development")
            let production = try await Self.register(emulator, environment: "production")
            var stream = BinaryStream()
            stream.frame(token: try #require(DeviceToken(hex: production)), n: 1, identifier: 1)
            stream.frame(token: try #require(DeviceToken(hex: development)), n: 2, identifier: 2)
            let response = try #require(try await emulator.gateway(stream), "closed without an error response")
            #expect(response.status == .invalidToken && response.identifier == 2, "\(response)")
            #expect(try await emulator.queued(production).count == 1)
            #expect(try await emulator.queued(development).isEmpty)
        }
    }
}

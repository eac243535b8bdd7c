import APNsTestSupport
import Foundation
import Testing

/// aioapns (from PyPI), an HTTP/2 provider library that knows nothing of the emulator, against
/// `--auth strict`: its own JWT code with a `.p8` key, and a client certificate, with only the
/// host, port and CA changed from a production configuration.
@Suite("aioapns as an HTTP/2 provider in strict mode")
struct ProviderLibraryTests {
    static let script = Checkout.thirdParty("http2_client.py")
    static let python = ProcessInfo.processInfo.environment["APNS_EMULATOR_PYTHON"] ?? "python3"
    static let app = "com.example.app"

    func run(_ emulator: RunningEmulator, _ arguments: [String]) async throws -> [String: Any] {
        let probe = try await Subprocess.run(Self.python, ["-c", "import aioapns"])
        try #require(probe.status == 0, "aioapns is missing: python3 -m pip install aioapns==4.0 (\(probe.stderr))")
        let run = try await Subprocess.run(
            Self.python, [Self.script, "127.0.0.1", String(emulator.http2Port), emulator.caPath] + arguments)
        try #require(run.status == 0, "http2_client.py failed: \(run.stderr)")
        let line = run.stdout.split(separator: "\n").last.map(String.init) ?? ""
        return try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(run.stdout)")
    }

    @Test("token authentication: aioapns's own JWTs are accepted, twenty pushes at once; an unrelated topic gets its reason")
    func token() async throws {
        try await withEmulator(configure: { $0.storagePolicy = .all; $0.auth = .strict }) { emulator in
            let key = try emulator.registerKey(keyID: "ABC123DEFG", teamID: "DEF123GHIJ", topics: [Self.app])
            let p8 = emulator.directory.appending("AuthKey_ABC123DEFG.p8")
            try key.p8.write(toFile: p8, atomically: true, encoding: .utf8)
            let device = String(repeating: "7a", count: 32)

            let seen = try await self.run(emulator, ["token", p8, key.keyID, key.teamID, Self.app, device])
            let pushes = try #require(seen["pushes"] as? [[Any?]])
            #expect(pushes.count == 20)
            #expect(pushes.allSatisfy { $0.first as? String == "200" })
            #expect(seen["otherTopic"] as? [String] == ["403", "UnrelatedKeyIdInToken"])
            #expect(try await emulator.queued(device).count == 20)
        }
    }

    @Test(
        "key scopes with tokens PyJWT signs, over one h2 connection: a topic-specific key after the team key is UnrelatedKeyIdInToken, another topic too, a production key BadEnvironmentKeyInToken"
    )
    func keyScopes() async throws {
        // Sources: Apple's "Establishing a token-based connection to APNs" (team-scoped and
        // topic-specific keys, environments) and "Handling notification responses from APNs"
        // (403 UnrelatedKeyIdInToken, BadEnvironmentKeyInToken); APNS-REFERENCE: the first push
        // binds a connection to its key.
        try await withEmulator(configure: { $0.auth = .strict }) { emulator in
            let team = "DEF123GHIJ"
            let keys = [
                try emulator.registerKey(keyID: "TEAMKEY001", teamID: team),
                try emulator.registerKey(keyID: "SCOPED0001", teamID: team, topics: [Self.app]),
                try emulator.registerKey(keyID: "PRODKEY001", teamID: team, environment: .production),
            ]
            var arguments = [team, String(repeating: "7b", count: 32), Self.app]
            for key in keys {
                let p8 = emulator.directory.appending("AuthKey_\(key.keyID).p8")
                try key.p8.write(toFile: p8, atomically: true, encoding: .utf8)
                arguments += [p8, key.keyID]
            }
            let run = try await Subprocess.run(
                Self.python, [Self.keyScript, "127.0.0.1", String(emulator.http2Port), emulator.caPath] + arguments)
            try #require(run.status == 0, "key_scopes.py failed: \(run.stderr)")
            let line = run.stdout.split(separator: "\n").last.map(String.init) ?? ""
            let seen = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(run.stdout)")
            #expect((seen["teamKey"] as? [Any?])?.first as? String == "200")
            #expect(seen["scopedAfterTeam"] as? [String] == ["403", "UnrelatedKeyIdInToken"])
            #expect((seen["scopedFirst"] as? [Any?])?.first as? String == "200")
            #expect(seen["scopedOtherTopic"] as? [String] == ["403", "UnrelatedKeyIdInToken"])
            #expect(seen["productionKey"] as? [String] == ["403", "BadEnvironmentKeyInToken"])
        }
    }

    static let keyScript = Checkout.thirdParty("key_scopes.py")

    @Test("certificate authentication: a certificate from certs provider's CA, topic from its UID")
    func certificate() async throws {
        try await withEmulator(configure: { $0.storagePolicy = .all; $0.auth = .strict }) { emulator in
            let identity = try emulator.providerIdentity(
                uid: Self.app, topics: [(Self.app, "app"), (Self.app + ".voip", "voip")])
            let combined = emulator.directory.appending("provider.pem")
            let pem =
                try String(contentsOfFile: identity.certificatePath, encoding: .utf8) + "\n"
                + String(contentsOfFile: identity.privateKeyPath, encoding: .utf8)
            try pem.write(toFile: combined, atomically: true, encoding: .utf8)
            let device = String(repeating: "7b", count: 32)

            let seen = try await self.run(emulator, ["cert", combined, device])
            let pushes = try #require(seen["pushes"] as? [[Any?]])
            #expect(pushes.count == 5)
            #expect(pushes.allSatisfy { $0.first as? String == "200" })
            #expect(seen["badToken"] as? [String] == ["400", "BadDeviceToken"])
            let queued = try await emulator.queued(device)
            #expect(queued.count == 5)
            #expect(queued.allSatisfy { $0["topic"] as? String == Self.app })
        }
    }
}

import APNsTestSupport
import Foundation
import Testing

/// The commands a provider's developer runs to get credentials for a strict emulator, and curl
/// pushing with each of them: a PEM certificate, the PKCS#12 bundle, and a provider token.
@Suite("certs provider and keys against serve --auth strict")
struct AuthCommandLineTests {
    static let device = String(repeating: "5e", count: 32)

    func curl(_ port: Int, ca: String, _ arguments: [String]) async throws -> String {
        let output = try await Subprocess.run(
            "curl",
            [
                "--silent", "--show-error", "--http2", "--cacert", ca, "--data", #"{"aps":{"alert":"hi"}}"#,
                "--write-out", "%{http_code}",
            ] + arguments + ["https://localhost:\(port)/3/device/\(Self.device)"]
        )
        try #require(output.status == 0, "curl failed: \(output.stderr)")
        return output.stdout
    }

    @Test("a certificate from certs provider (PEM and PKCS#12) and a key from keys create both push")
    func credentials() async throws {
        let directory = try TemporaryDirectory()
        let certs = directory.appending("certs")
        let keys = directory.appending("keys")
        let provider = directory.appending("provider")
        let emulator = try await EmulatorProcess.start(
            arguments: [
                "--auth", "strict", "--certs-dir", certs, "--keys", keys, "--data-dir", directory.appending("data"),
                "--storage-policy", "all",
            ],
            output: directory.appending("emulator.log")
        )
        let ca = certs + "/ca.pem"

        #expect(try await self.curl(emulator.http2Port, ca: ca, []) == #"{"reason":"MissingProviderToken"}403"#)

        let minted = try await Subprocess.run(
            Subprocess.emulatorExecutable,
            [
                "certs", "provider", "--topic", "com.example.app", "--certs-dir", certs, "--out", provider, "--p12-password",
                "secret",
            ]
        )
        try #require(minted.status == 0, "certs provider failed: \(minted.stderr)")
        #expect(try await self.curl(emulator.http2Port, ca: ca, ["--cert", provider + "/com.example.app.pem"]) == "200")
        #expect(
            try await self.curl(
                emulator.http2Port, ca: ca,
                ["--cert", provider + "/com.example.app-cert.pem", "--key", provider + "/com.example.app-key.pem"]) == "200")
        #expect(
            try await self.curl(
                emulator.http2Port, ca: ca, ["--cert-type", "P12", "--cert", provider + "/com.example.app.p12:secret"]) == "200")
        // apns-emulator push presents the same certificate.
        let pushed = try await Subprocess.run(
            Subprocess.emulatorExecutable,
            [
                "push", "--http2-port", String(emulator.http2Port), "--ca", ca, "--cert", provider + "/com.example.app.pem",
                "--token", String(repeating: "ab", count: 32), #"{"aps":{"alert":"signed"}}"#,
            ])
        #expect(pushed.status == 0 && pushed.stdout.hasPrefix("200 OK"), "\(pushed.stdout)\(pushed.stderr)")

        try await self.pkcs12Readers(emulator, ca: ca, p12: provider + "/com.example.app.p12", directory: directory)
        try await self.tokenCredentials(emulator, ca: ca, keys: keys, provider: provider, directory: directory)
    }

    /// The .p12 opens in every client library's reader, as Keychain Access's exports do (issue 52:
    /// Go's golang.org/x/crypto/pkcs12, which sideshow/apns2 loads certificates with, knows no PBES2
    /// and refused BoringSSL's AES-256 default with "algorithm 1.2.840.113549.1.5.13 is not supported").
    private func pkcs12Readers(_ emulator: EmulatorProcess, ca: String, p12: String, directory: TemporaryDirectory) async throws {
        // OpenSSL 3 without its legacy provider, and the algorithms it reports.
        let info = try await Subprocess.run("openssl", ["pkcs12", "-in", p12, "-passin", "pass:secret", "-info", "-noout"])
        #expect(info.status == 0, "openssl cannot read the .p12: \(info.stderr)")
        #expect(info.stderr.contains("Shrouded Keybag: pbeWithSHA1And3-KeyTripleDES-CBC") && info.stderr.contains("MAC: sha1"), "\(info.stderr)")
        // Java's keytool (Pushy loads the same KeyStore type).
        let keytool = try await Subprocess.run("keytool", ["-list", "-storetype", "PKCS12", "-keystore", p12, "-storepass", "secret"])
        #expect(keytool.status == 0 && keytool.stdout.contains("PrivateKeyEntry"), "keytool: \(keytool.stdout)\(keytool.stderr)")
        // Go: golang.org/x/crypto/pkcs12 loads it and net/http pushes with it over HTTP/2.
        let gopath = "/usr/share/gocode"
        try #require(
            FileManager.default.fileExists(atPath: gopath + "/src/golang.org/x/crypto/pkcs12"),
            "golang.org/x/crypto is missing: apt-get install golang-golang-x-crypto-dev")
        let go = FileManager.default.isExecutableFile(atPath: "/usr/lib/go/bin/go") ? "/usr/lib/go/bin/go" : "go"
        let program = Checkout.root.appendingPathComponent("Tests/ThirdParty/go_p12_push/main.go").path
        let pushed = try await Subprocess.run(
            "env",
            [
                "GO111MODULE=off", "GOPATH=" + gopath, "GOCACHE=" + directory.appending("go-cache"), "GOPROXY=off", "GOFLAGS=",
                go, "run", program, p12, "secret", ca, "https://localhost:\(emulator.http2Port)/3/device/\(Self.device)",
            ])
        #expect(pushed.status == 0 && pushed.stdout.hasPrefix("200 HTTP/2.0"), "Go: \(pushed.stdout)\(pushed.stderr)")
    }

    /// Provider-token keys created and imported while the emulator runs.
    private func tokenCredentials(
        _ emulator: EmulatorProcess, ca: String, keys: String, provider: String, directory: TemporaryDirectory
    ) async throws {
        // The key is registered while the emulator runs.
        let created = try await Subprocess.run(
            Subprocess.emulatorExecutable,
            ["keys", "create", "--team-id", "ABCDE12345", "--key-id", "XYZ987WVUT", "--keys", keys, "--out", provider]
        )
        try #require(created.status == 0, "keys create failed: \(created.stderr)")
        let p8 = provider + "/AuthKey_XYZ987WVUT.p8"
        #expect(FileManager.default.fileExists(atPath: p8))
        let token = try await Subprocess.run(Subprocess.emulatorExecutable, ["keys", "token", p8, "--team-id", "ABCDE12345"])
        try #require(token.status == 0, "keys token failed: \(token.stderr)")
        let jwt = token.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let topic = ["--header", "apns-topic: com.example.app"]
        #expect(try await self.curl(emulator.http2Port, ca: ca, topic + ["--header", "authorization: bearer \(jwt)"]) == "200")

        // An existing .p8 imported under another id; a token claiming another team is refused.
        let imported = try await Subprocess.run(
            Subprocess.emulatorExecutable,
            ["keys", "import", p8, "--key-id", "IMPORTED01", "--team-id", "OTHERTEAM1", "--keys", keys]
        )
        try #require(imported.status == 0, "keys import failed: \(imported.stderr)")
        let foreign = try await Subprocess.run(
            Subprocess.emulatorExecutable,
            ["keys", "token", p8, "--key-id", "IMPORTED01", "--team-id", "ABCDE12345"]
        )
        let forged = foreign.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(
            try await self.curl(emulator.http2Port, ca: ca, topic + ["--header", "authorization: bearer \(forged)"])
                == #"{"reason":"InvalidProviderToken"}403"#)

        let admin = try await AdminTestClient.request(
            host: "127.0.0.1", port: emulator.adminPort, method: "GET", path: "/api/v1/devices/\(Self.device)/notifications",
            body: nil)
        // To this device: PEM, cert and key, curl's .p12, Go's .p12 and the provider token.
        #expect((try admin.json() as? [Any])?.count == 5)
        await emulator.kill(SIGTERM)
        try directory.remove()
    }

    // Apple, "Establishing a token-based connection to APNs": a key may be limited to Sandbox or
    // Production and to chosen topics; a token from a key for the other environment is refused
    // with BadEnvironmentKeyInToken.
    @Test("keys create --environment sandbox|production|both and --topics: each key pushes only where it may")
    func scopedKeys() async throws {
        let directory = try TemporaryDirectory()
        let (certs, keys, provider) = (directory.appending("certs"), directory.appending("keys"), directory.appending("provider"))
        let emulator = try await EmulatorProcess.start(
            arguments: ["--auth", "strict", "--certs-dir", certs, "--keys", keys, "--data-dir", directory.appending("data")],
            output: directory.appending("emulator.log")
        )
        func token(_ keyID: String, _ scope: [String]) async throws -> String {
            let created = try await Subprocess.run(
                Subprocess.emulatorExecutable,
                ["keys", "create", "--team-id", "ABCDE12345", "--key-id", keyID, "--keys", keys, "--out", provider] + scope)
            try #require(created.status == 0, "keys create failed: \(created.stderr)")
            let signed = try await Subprocess.run(
                Subprocess.emulatorExecutable, ["keys", "token", provider + "/AuthKey_\(keyID).p8", "--team-id", "ABCDE12345"])
            return signed.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        func push(_ jwt: String, topic: String) async throws -> String {
            try await self.curl(
                emulator.http2Port, ca: certs + "/ca.pem",
                ["--header", "apns-topic: \(topic)", "--header", "authorization: bearer \(jwt)"])
        }
        let production = try await token("PRODUCTION", ["--environment", "production"])
        #expect(
            try await push(production, topic: "com.example.app") == #"{"reason":"BadEnvironmentKeyInToken"}403"#,
            "the emulator is the sandbox")
        let sandbox = try await token(
            "SANDBOXKEY", ["--environment", "sandbox", "--topics", "com.example.app, com.example.news"])
        #expect(try await push(sandbox, topic: "com.example.news") == "200")
        #expect(try await push(sandbox, topic: "com.example.other").hasSuffix("403"), "a topic the key was not made for")
        let both = try await token("BOTHKEY001", ["--environment", "both"])
        #expect(try await push(both, topic: "com.example.other") == "200")
        let refused = try await Subprocess.run(
            Subprocess.emulatorExecutable,
            ["keys", "create", "--team-id", "ABCDE12345", "--keys", keys, "--out", provider, "--environment", "staging"])
        #expect(refused.status != 0 && refused.stderr.contains("sandbox"), "\(refused.stderr)")
        await emulator.kill(SIGTERM)
        try directory.remove()
    }
}

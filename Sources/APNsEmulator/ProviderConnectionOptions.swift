import APNsAuth
import APNsProviderClient
import ArgumentParser
import Crypto
import Foundation

/// Where the emulator's HTTP/2 API is and how a provider authenticates to it: the options
/// `push` and `channels` share, declared once.
struct ProviderConnectionOptions: ParsableArguments {
    @Option(help: "A provider-token signing key (.p8) for token authentication.")
    var key: String?

    @Option(name: .customLong("key-id"), help: "The key's id (the token's kid).")
    var keyID: String?

    @Option(name: .customLong("team-id"), help: "The team id (the token's iss).")
    var teamID: String?

    @Option(help: "A PEM file with a provider certificate and its key, for certificate authentication.")
    var cert: String?

    @Option(help: "The emulator's address. (env: \(EnvironmentTwins.variable(for: "--host")))")
    var host = ServeCommand.defaults.host

    @Option(
        name: .customLong("http2-port"),
        help:
            "The emulator's HTTP/2 port (it serves channel management too). (env: \(EnvironmentTwins.variable(for: "--http2-port")))"
    )
    var http2Port = ServeCommand.defaults.http2Port

    @Option(name: .customLong("ca"), help: "The CA to trust: the emulator's development CA.")
    var caPath = ServeCommand.defaults.developmentCAPath

    func validate() throws {
        let tokenAuth = [self.key, self.keyID, self.teamID].compactMap { $0 }.count
        guard tokenAuth == 0 || tokenAuth == 3 else {
            throw ValidationError("token authentication needs --key, --key-id and --team-id together")
        }
        if tokenAuth == 3, self.cert != nil {
            throw ValidationError("use --key (token) or --cert (certificate) authentication, not both")
        }
    }

    /// The `authorization` header of a provider token signed now, with token authentication.
    func authorization() throws -> String? {
        guard let key, let keyID, let teamID else { return nil }
        return try Self.authorization(key: key, keyID: keyID, teamID: teamID)
    }

    /// A provider connection to the emulator, trusting `--ca`, presenting `--cert` if given.
    func connect() async throws -> ProviderClient {
        try await Self.connect(host: self.host, port: self.http2Port, caPath: self.caPath, cert: self.cert)
    }

    /// `bearer <provider token>` signed now with the .p8 key at `key`.
    static func authorization(key: String, keyID: String, teamID: String) throws -> String {
        let pem: String
        do {
            pem = try String(contentsOfFile: key, encoding: .utf8)
        } catch {
            throw PushCommandError("cannot read the key \(key) (looked in \(FileManager.default.currentDirectoryPath))")
        }
        let signingKey: P256.Signing.PrivateKey
        do {
            signingKey = try P256.Signing.PrivateKey(pemRepresentation: pem)
        } catch {
            throw PushCommandError("\(key) is not a P-256 private key in PEM (.p8): \(error)")
        }
        let issuedAt = Int64(Date().timeIntervalSince1970)
        return "bearer " + (try ProviderToken.sign(keyID: keyID, teamID: teamID, issuedAt: issuedAt, with: signingKey))
    }

    /// A provider connection to the emulator, trusting `caPath`, presenting `cert` if given.
    static func connect(host: String, port: Int, caPath: String, cert: String?) async throws -> ProviderClient {
        guard let ca = FileManager.default.contents(atPath: caPath) else {
            throw PushCommandError(
                "no CA at \(caPath) (relative to \(FileManager.default.currentDirectoryPath)): pass --ca with the emulator's certs/ca.pem, or run from the folder serve started in"
            )
        }
        var identity: (certificates: [UInt8], key: [UInt8])?
        if let cert {
            guard let pem = FileManager.default.contents(atPath: cert) else {
                throw PushCommandError(
                    "cannot read the certificate \(cert) (looked in \(FileManager.default.currentDirectoryPath))")
            }
            identity = (Array(pem), Array(pem))
        }
        do {
            return try await ProviderClient.connect(host: host, port: port, trust: .certificates(Array(ca)), identity: identity)
        } catch  where PushCommand.isRefused(error) {
            throw PushCommandError(
                "could not connect to \(host):\(port): connection refused (is `apns-emulator serve` running, on that port?)")
        } catch {
            throw PushCommandError(
                "could not connect to \(host):\(port) with TLS: \(error) (is that the HTTP/2 port, and \(caPath) the emulator's CA?)"
            )
        }
    }
}

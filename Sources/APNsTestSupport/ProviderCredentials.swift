import APNsAuth
import APNsCore
import APNsServer
import Crypto
import Foundation
import NIOSSL
import X509

/// A client certificate and its key on disk, as a provider presents them.
public struct ClientIdentity: Sendable {
    public let certificatePath: String
    public let privateKeyPath: String

    /// Mints a provider certificate signed by the CA in `caDirectory` (`ca.pem`, `ca-key.pem`) and
    /// writes it into `directory`.
    public static func mint(
        signedBy caDirectory: String,
        into directory: String,
        uid: String?,
        topics: [(topic: String, kind: String)] = [],
        environments: Set<APNsEnvironment> = [.development],
        validFor seconds: TimeInterval = 86_400
    ) throws -> ClientIdentity {
        let (issuer, issuerKey) = try DevelopmentCertificates.certificateAuthority(in: caDirectory)
        let (certificate, key) = try DevelopmentCertificates.providerCertificate(
            uid: uid,
            topics: topics,
            environments: environments,
            issuer: issuer,
            issuerKey: issuerKey,
            validFor: seconds
        )
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let base = directory + "/" + UUID().uuidString
        try certificate.serializeAsPEM().pemString.write(toFile: base + "-cert.pem", atomically: true, encoding: .utf8)
        try key.pemRepresentation.write(toFile: base + "-key.pem", atomically: true, encoding: .utf8)
        return ClientIdentity(certificatePath: base + "-cert.pem", privateKeyPath: base + "-key.pem")
    }

    /// Presents this identity in `configuration`.
    /// The certificate chain and key as PEM, as `ProviderClient` takes them.
    public func pem() throws -> (certificates: [UInt8], key: [UInt8]) {
        guard let certificates = FileManager.default.contents(atPath: self.certificatePath), let key = FileManager.default.contents(atPath: self.privateKeyPath) else {
            throw TestClientError.unexpected("the identity's files are gone: \(self.certificatePath), \(self.privateKeyPath)")
        }
        return (Array(certificates), Array(key))
    }

    func apply(to configuration: inout TLSConfiguration) throws {
        configuration.certificateChain = try NIOSSLCertificate.fromPEMFile(self.certificatePath).map { .certificate($0) }
        configuration.privateKey = .privateKey(try NIOSSLPrivateKey(file: self.privateKeyPath, format: .pem))
    }
}

/// A provider-token signing key a test holds, registered with an emulator's key store.
public struct TestProviderKey: Sendable {
    public let keyID: String
    public let teamID: String
    /// The private key as PKCS#8 PEM (the contents of a `.p8` file).
    public let p8: String

    /// A new key, registered in `keysDirectory`.
    public static func register(
        in keysDirectory: String,
        keyID: String,
        teamID: String,
        topics: [String] = [],
        environment: APNsEnvironment? = nil
    ) throws -> TestProviderKey {
        let key = P256.Signing.PrivateKey()
        try ProviderKeyStore.register(
            ProviderKey(keyID: keyID, teamID: teamID, publicKey: key.publicKey, topics: topics, environment: environment),
            in: keysDirectory
        )
        return TestProviderKey(keyID: keyID, teamID: teamID, p8: key.pemRepresentation)
    }

    public init(keyID: String, teamID: String, p8: String) {
        self.keyID = keyID
        self.teamID = teamID
        self.p8 = p8
    }

    /// An `authorization` header value: `bearer <JWT>`, signed with this key. `keyID` and
    /// `teamID` override what goes into the token (to forge tokens the emulator must refuse).
    public func authorization(issuedAt: Int64, keyID: String? = nil, teamID: String? = nil) throws -> String {
        let key = try P256.Signing.PrivateKey(pemRepresentation: self.p8)
        return "bearer " + (try ProviderToken.sign(keyID: keyID ?? self.keyID, teamID: teamID ?? self.teamID, issuedAt: issuedAt, with: key))
    }
}

extension RunningEmulator {
    /// Where this emulator's provider-token keys are.
    public var keysDirectory: String { self.emulator.configuration.keysDirectory }

    /// Mints a provider certificate signed by this emulator's development CA.
    public func providerIdentity(
        uid: String?,
        topics: [(topic: String, kind: String)] = [],
        environments: Set<APNsEnvironment> = [.development]
    ) throws -> ClientIdentity {
        try ClientIdentity.mint(
            signedBy: self.emulator.configuration.certificatesDirectory,
            into: self.directory.appending("clients"),
            uid: uid,
            topics: topics,
            environments: environments
        )
    }

    /// Registers a new provider-token key with this emulator.
    public func registerKey(keyID: String = "KEY1234567", teamID: String = "TEAM123456", topics: [String] = [], environment: APNsEnvironment? = nil) throws -> TestProviderKey {
        try TestProviderKey.register(in: self.keysDirectory, keyID: keyID, teamID: teamID, topics: topics, environment: environment)
    }

    /// The emulator's clock now, in seconds: the `iat` of a fresh token.
    public var nowSeconds: Int64 { self.emulator.configuration.clock() / 1000 }
}

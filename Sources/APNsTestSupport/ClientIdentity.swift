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
        guard let certificates = FileManager.default.contents(atPath: self.certificatePath),
            let key = FileManager.default.contents(atPath: self.privateKeyPath)
        else {
            throw TestClientError.unexpected("the identity's files are gone: \(self.certificatePath), \(self.privateKeyPath)")
        }
        return (Array(certificates), Array(key))
    }

    func apply(to configuration: inout TLSConfiguration) throws {
        configuration.certificateChain = try NIOSSLCertificate.fromPEMFile(self.certificatePath).map { .certificate($0) }
        configuration.privateKey = .privateKey(try NIOSSLPrivateKey(file: self.privateKeyPath, format: .pem))
    }
}

import APNsCore
import Crypto
import Foundation
import SwiftASN1
import X509

/// Makes the development CA and a `localhost` server certificate, like mkcert: generated on
/// each machine, never shipped, so no CA key that people trust is ever shared.
public enum DevelopmentCertificates {
    /// The files written into a certificates directory.
    public struct Files: Sendable {
        public let directory: String
        public var caCertificate: String { self.directory + "/ca.pem" }
        public var caPrivateKey: String { self.directory + "/ca-key.pem" }
        public var serverCertificate: String { self.directory + "/server.pem" }
        public var serverPrivateKey: String { self.directory + "/server-key.pem" }

        public init(directory: String) { self.directory = directory }
    }

    /// The names the server certificate is valid for.
    /// `devices.localhost` and `s<K>.devices.localhost` are the names a device sets (TLS SNI) to
    /// reach any shard, or shard K, through HAProxy.
    public static let serverNames = ["localhost", "devices.localhost", "*.devices.localhost", "127.0.0.1", "::1"]

    /// ``serverNames`` as the certificate carries them: addresses as IP addresses, the rest as DNS names.
    static let serverAlternativeNames: [GeneralName] = serverNames.map { name in
        var v4 = in_addr()
        var v6 = in6_addr()
        if inet_pton(AF_INET, name, &v4) == 1 {
            return .ipAddress(ASN1OctetString(contentBytes: withUnsafeBytes(of: v4) { ArraySlice($0) }))
        }
        if inet_pton(AF_INET6, name, &v6) == 1 {
            return .ipAddress(ASN1OctetString(contentBytes: withUnsafeBytes(of: v6) { ArraySlice($0) }))
        }
        return .dnsName(name)
    }

    /// Creates a new CA and server certificate in `directory`, replacing any there.
    /// Private keys are written readable by the owner only.
    @discardableResult
    public static func generate(into directory: String, now: Date = Date()) throws -> Files {
        let files = Files(directory: directory)
        // Others may read the CA to trust it, never write beside its key (0755 whatever the umask).
        try PrivateFiles.directory(directory, mode: 0o755)

        let caKey = P256.Signing.PrivateKey()
        let caName = try DistinguishedName {
            OrganizationName("apns-emulator")
            CommonName("apns-emulator development CA (\(ProcessInfo.processInfo.hostName))")
        }
        let caCertificate = try Certificate(
            version: .v3,
            serialNumber: Certificate.SerialNumber(),
            publicKey: .init(caKey.publicKey),
            notValidBefore: now.addingTimeInterval(-3600),
            notValidAfter: now.addingTimeInterval(10 * 365 * 86_400),
            issuer: caName,
            subject: caName,
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: 0))
                Critical(KeyUsage(keyCertSign: true, cRLSign: true))
                SubjectKeyIdentifier(hash: .init(caKey.publicKey))
            },
            issuerPrivateKey: .init(caKey)
        )

        let serverKey = P256.Signing.PrivateKey()
        let serverCertificate = try Certificate(
            version: .v3,
            serialNumber: Certificate.SerialNumber(),
            publicKey: .init(serverKey.publicKey),
            notValidBefore: now.addingTimeInterval(-3600),
            // Apple's clients refuse server certificates valid for more than 398 days.
            notValidAfter: now.addingTimeInterval(397 * 86_400),
            issuer: caName,
            subject: try DistinguishedName {
                OrganizationName("apns-emulator")
                CommonName("localhost")
            },
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.notCertificateAuthority)
                Critical(KeyUsage(digitalSignature: true))
                try ExtendedKeyUsage([.serverAuth])
                SubjectAlternativeNames(Self.serverAlternativeNames)
                AuthorityKeyIdentifier(keyIdentifier: SubjectKeyIdentifier(hash: .init(caKey.publicKey)).keyIdentifier)
            },
            issuerPrivateKey: .init(caKey)
        )

        try self.write(caCertificate.serializeAsPEM().pemString, to: files.caCertificate, secret: false)
        try self.write(caKey.pemRepresentation, to: files.caPrivateKey, secret: true)
        try self.write(serverCertificate.serializeAsPEM().pemString, to: files.serverCertificate, secret: false)
        try self.write(serverKey.pemRepresentation, to: files.serverPrivateKey, secret: true)
        return files
    }

    /// Makes sure a server certificate and key exist: when either file is missing and both are the
    /// default ones in `directory`, a new CA and server certificate are generated there and their
    /// files returned; a missing file given explicitly is an error. Nil when both exist.
    public static func ensure(certificate: String, privateKey: String, in directory: String) throws -> Files? {
        let manager = FileManager.default
        let certificateExists = manager.fileExists(atPath: certificate)
        let keyExists = manager.fileExists(atPath: privateKey)
        if certificateExists && keyExists { return nil }
        let files = Files(directory: directory)
        guard certificate == files.serverCertificate, privateKey == files.serverPrivateKey else {
            throw AuthError(.certificates, "no such file: \(certificateExists ? privateKey : certificate)")
        }
        return try self.generate(into: directory)
    }

    static func write(_ text: String, to path: String, secret: Bool) throws {
        let attributes: [FileAttributeKey: Any] = [.posixPermissions: secret ? 0o600 : 0o644]
        _ = FileManager.default.createFile(atPath: path, contents: nil, attributes: attributes)
        guard let handle = FileHandle(forWritingAtPath: path) else {
            throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: path])
        }
        try handle.truncate(atOffset: 0)
        try handle.write(contentsOf: Data((text.hasSuffix("\n") ? text : text + "\n").utf8))
        try handle.close()
        try FileManager.default.setAttributes(attributes, ofItemAtPath: path)
    }
}

import APNsCore
import Crypto
import Foundation
import SwiftASN1
import X509

extension DevelopmentCertificates {
    /// Which APNs a provider certificate is for, as Apple issues them.
    public enum ProviderEnvironment: String, Sendable, CaseIterable {
        /// "Apple Development IOS Push Services": the sandbox only.
        case development
        /// "Apple Production IOS Push Services": production only.
        case production
        /// "Apple Push Services": both.
        case universal

        var environments: Set<APNsEnvironment> {
            switch self {
            case .development: [.development]
            case .production: [.production]
            case .universal: [.development, .production]
            }
        }
    }

    /// The files `certs provider` writes.
    public struct ProviderFiles: Sendable {
        /// Certificate and key in one PEM file: what most provider libraries load.
        public let combined: String
        public let certificate: String
        public let privateKey: String
        /// Where the PKCS#12 bundle of the certificate and key goes (written by the caller, which
        /// has a TLS library to hand).
        public let pkcs12: String
        /// The certificate and its private key, PEM-encoded.
        public let certificatePEM: String
        public let privateKeyPEM: String
    }

    /// Mints a provider certificate for `topic` signed by the development CA in
    /// `certificatesDirectory` (created first if there is none), with Apple's environment and
    /// topics extensions (or, without `withTopics`, naming no topic), and writes it to `outputDirectory` as PEM.
    public static func provider(
        topic: String,
        voip: Bool,
        withTopics: Bool = true,
        environment: ProviderEnvironment,
        certificatesDirectory: String,
        outputDirectory: String,
        now: Date = Date()
    ) throws -> ProviderFiles {
        let ca = Files(directory: certificatesDirectory)
        if !FileManager.default.fileExists(atPath: ca.caCertificate) || !FileManager.default.fileExists(atPath: ca.caPrivateKey) {
            try self.generate(into: certificatesDirectory, now: now)
        }
        let (issuer, issuerKey) = try self.certificateAuthority(in: certificatesDirectory)
        var topics = [(topic: topic, kind: "app")]
        if voip { topics.append((topic + ".voip", "voip")) }
        let (certificate, key) = try self.providerCertificate(
            uid: withTopics ? topic : nil,
            topics: withTopics ? topics : [],
            environments: environment.environments,
            issuer: issuer,
            issuerKey: issuerKey,
            now: now
        )
        try FileManager.default.createDirectory(atPath: outputDirectory, withIntermediateDirectories: true)
        let base = outputDirectory + "/" + topic
        let certificatePEM = try certificate.serializeAsPEM().pemString
        let files = ProviderFiles(
            combined: base + ".pem", certificate: base + "-cert.pem", privateKey: base + "-key.pem", pkcs12: base + ".p12",
            certificatePEM: certificatePEM, privateKeyPEM: key.pemRepresentation
        )
        try self.write(certificatePEM, to: files.certificate, secret: false)
        try self.write(key.pemRepresentation, to: files.privateKey, secret: true)
        try self.write(certificatePEM + "\n" + key.pemRepresentation, to: files.combined, secret: true)
        return files
    }

    /// The CA certificate and private key in a certificates directory (`ca.pem`, `ca-key.pem`).
    public static func certificateAuthority(in directory: String) throws -> (Certificate, P256.Signing.PrivateKey) {
        let files = Files(directory: directory)
        let certificate = try Certificate(pemEncoded: String(contentsOfFile: files.caCertificate, encoding: .utf8))
        let key = try P256.Signing.PrivateKey(pemRepresentation: String(contentsOfFile: files.caPrivateKey, encoding: .utf8))
        return (certificate, key)
    }

    /// A client certificate as Apple issues them to providers: subject `UID` the bundle id, the
    /// environment extensions, and the topics extension when `topics` is not empty. Tests use it
    /// with their own throw-away CAs to mint every kind of certificate.
    public static func providerCertificate(
        uid: String?,
        topics: [(topic: String, kind: String)],
        environments: Set<APNsEnvironment>,
        issuer: Certificate,
        issuerKey: P256.Signing.PrivateKey,
        now: Date = Date(),
        validFor seconds: TimeInterval = 365 * 86_400
    ) throws -> (Certificate, P256.Signing.PrivateKey) {
        let key = P256.Signing.PrivateKey()
        let kind =
            environments == [.development]
            ? "Apple Development IOS Push Services"
            : environments == [.production] ? "Apple Production IOS Push Services" : "Apple Push Services"
        var attributes = [RelativeDistinguishedName.Attribute]()
        if let uid { attributes.append(.init(type: ProviderCertificate.userIDOID, utf8String: uid)) }
        attributes.append(
            .init(type: .RDNAttributeType.commonName, utf8String: "\(kind): \(uid ?? topics.first?.topic ?? "no topic")"))
        attributes.append(.init(type: .RDNAttributeType.organizationName, utf8String: "apns-emulator"))
        var extensions = try Certificate.Extensions {
            Critical(BasicConstraints.notCertificateAuthority)
            Critical(KeyUsage(digitalSignature: true))
            try ExtendedKeyUsage([.clientAuth])
            AuthorityKeyIdentifier(keyIdentifier: SubjectKeyIdentifier(hash: issuer.publicKey).keyIdentifier)
        }
        // Apple marks the environment with an extension whose value is an ASN.1 NULL.
        if environments.contains(.development) {
            try extensions.append(
                Certificate.Extension(oid: ProviderCertificate.developmentOID, critical: false, value: [0x05, 0x00]))
        }
        if environments.contains(.production) {
            try extensions.append(
                Certificate.Extension(oid: ProviderCertificate.productionOID, critical: false, value: [0x05, 0x00]))
        }
        if !topics.isEmpty {
            let value = try ProviderCertificate.encodeTopics(topics)
            try extensions.append(Certificate.Extension(oid: ProviderCertificate.topicsOID, critical: false, value: value[...]))
        }
        let certificate = try Certificate(
            version: .v3,
            serialNumber: Certificate.SerialNumber(),
            publicKey: .init(key.publicKey),
            notValidBefore: now.addingTimeInterval(-3600),
            notValidAfter: now.addingTimeInterval(seconds),
            issuer: issuer.subject,
            subject: DistinguishedName(attributes.map { RelativeDistinguishedName($0) }),
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: extensions,
            issuerPrivateKey: .init(issuerKey)
        )
        return (certificate, key)
    }
}

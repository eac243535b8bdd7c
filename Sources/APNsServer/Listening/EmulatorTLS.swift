import APNsAuth
import Foundation
import Logging
import NIOSSL

/// The emulator's TLS contexts, built in one place from the configuration: the server
/// certificate (generated into the certificates directory when it is the default and missing),
/// and in strict mode the CAs provider certificates may chain to.
struct EmulatorTLS: Sendable {
    /// HTTP/2 providers: ALPN h2, a client certificate asked for in strict mode (tokens are the
    /// alternative).
    let http2: NIOSSLContext
    /// The binary gateway and feedback: plain TLS, a client certificate required in strict mode.
    let binary: NIOSSLContext
    /// Devices: plain TLS, no client certificate.
    let device: NIOSSLContext

    init(_ configuration: EmulatorConfiguration, logger: Logger) throws {
        try Self.ensureCertificates(configuration, logger: logger)
        let strict = configuration.auth == .strict
        let roots = try Self.providerTrustRoots(configuration)
        func context(_ protocols: [String], _ clientCertificates: TLSFiles.ClientCertificates) throws -> NIOSSLContext {
            try TLSFiles.serverContext(
                certificatePath: configuration.certificatePath,
                privateKeyPath: configuration.privateKeyPath,
                protocols: protocols,
                clientCertificates: clientCertificates
            )
        }
        self.http2 = try context(["h2"], strict ? .optional(trustRoots: roots) : .ignored)
        // Devices, the gateway and feedback speak plain TLS, without ALPN.
        self.binary = try context([], strict ? .required(trustRoots: roots) : .ignored)
        self.device = try context([], .ignored)
    }

    /// Generates development certificates when the configured ones are missing and are the
    /// ones in the certificates directory; a missing file given explicitly is an error.
    static func ensureCertificates(_ configuration: EmulatorConfiguration, logger: Logger) throws {
        let manager = FileManager.default
        let certificateExists = manager.fileExists(atPath: configuration.certificatePath)
        let keyExists = manager.fileExists(atPath: configuration.privateKeyPath)
        if certificateExists && keyExists { return }
        let files = DevelopmentCertificates.Files(directory: configuration.certificatesDirectory)
        guard configuration.certificatePath == files.serverCertificate, configuration.privateKeyPath == files.serverPrivateKey else {
            let missing = certificateExists ? configuration.privateKeyPath : configuration.certificatePath
            throw ServerError(.tls, subject: "tls", "no such file: \(missing)")
        }
        try DevelopmentCertificates.generate(into: configuration.certificatesDirectory)
        logger.info(
            "generated a development CA and a localhost server certificate; trust the CA to connect without warnings",
            metadata: ["tls.ca": "\(files.caCertificate)", "tls.certificate": "\(files.serverCertificate)"]
        )
    }

    /// The CAs provider certificates may chain to: the development CA, when there is one, and
    /// every `--provider-ca`.
    static func providerTrustRoots(_ configuration: EmulatorConfiguration) throws -> [NIOSSLCertificate] {
        var paths = configuration.providerCAPaths
        if FileManager.default.fileExists(atPath: configuration.developmentCAPath) {
            paths.insert(configuration.developmentCAPath, at: 0)
        }
        return try TLSFiles.trustRoots(paths)
    }
}

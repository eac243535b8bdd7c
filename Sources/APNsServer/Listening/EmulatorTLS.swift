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
    /// The binary gateway and feedback: TLS without ALPN for their own protocols, ALPN h2 for
    /// channel management (Apple serves it on their ports); in strict mode a client certificate
    /// is asked for, and the binary protocols refuse a connection without one after the handshake
    /// (a token-based HTTP/2 client has none).
    let binary: NIOSSLContext
    /// Devices: plain TLS, no client certificate.
    let device: NIOSSLContext
    /// The Web Push service: HTTP/2 or HTTP/1.1 by ALPN, no client certificate (VAPID says who
    /// sends).
    let webPush: NIOSSLContext

    /// Whether a listener asks providers for a client certificate.
    enum ClientCertificates {
        /// Not asked for (`--auth none`, and device connections).
        case ignored
        /// Asked for; a connection without one may still use a provider token. One that is
        /// presented must chain to `trustRoots`, or the handshake fails.
        case optional(trustRoots: [NIOSSLCertificate])
    }

    init(_ configuration: EmulatorConfiguration, logger: Logger) throws {
        try Self.ensureCertificates(configuration, logger: logger)
        let strict = configuration.auth == .strict
        let roots = try Self.providerTrustRoots(configuration)
        let chain = try NIOSSLCertificate.fromPEMFile(configuration.certificatePath).map {
            NIOSSLCertificateSource.certificate($0)
        }
        let key = try NIOSSLPrivateKey(file: configuration.privateKeyPath, format: .pem)
        func context(_ protocols: [String], _ clientCertificates: ClientCertificates) throws -> NIOSSLContext {
            try Self.serverContext(chain: chain, key: key, protocols: protocols, clientCertificates: clientCertificates)
        }
        self.http2 = try context(["h2"], strict ? .optional(trustRoots: roots) : .ignored)
        // A client that offers no ALPN (or none of these) gets no ALPN: the binary protocols.
        self.binary = try context(["h2"], strict ? .optional(trustRoots: roots) : .ignored)
        self.device = try context([], .ignored)
        self.webPush = try context(["h2", "http/1.1"], .ignored)
    }

    /// A server context offering `protocols` by ALPN, TLS 1.2 or newer.
    static func serverContext(
        chain: [NIOSSLCertificateSource],
        key: NIOSSLPrivateKey,
        protocols: [String],
        clientCertificates: ClientCertificates
    ) throws -> NIOSSLContext {
        var configuration = TLSConfiguration.makeServerConfiguration(certificateChain: chain, privateKey: .privateKey(key))
        configuration.minimumTLSVersion = .tlsv12
        configuration.applicationProtocols = protocols
        // How long a closing connection waits for the client's close_notify before it closes
        // anyway (NIOSSL's default is 5 s): a client that is not reading never sends it, and at
        // shutdown every such connection held the emulator's exit for the whole wait.
        configuration.shutdownTimeout = .seconds(1)
        switch clientCertificates {
        case .ignored:
            configuration.certificateVerification = .none
        case .optional(let roots):
            configuration.certificateVerification = .optionalVerification
            configuration.trustRoots = .certificates(roots)
        }
        return try NIOSSLContext(configuration: configuration)
    }

    /// Generates development certificates when the configured ones are missing and are the
    /// ones in the certificates directory (logged, with where the CA is).
    static func ensureCertificates(_ configuration: EmulatorConfiguration, logger: Logger) throws {
        let generated = try DevelopmentCertificates.ensure(
            certificate: configuration.certificatePath,
            privateKey: configuration.privateKeyPath,
            in: configuration.certificatesDirectory
        )
        guard let files = generated else { return }
        // `serve` says so in its own start-up lines; the log keeps it for those who read the log.
        logger.debug(
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
        return try paths.flatMap { path in
            do {
                return try NIOSSLCertificate.fromPEMFile(path)
            } catch {
                throw ServerError(.tls, subject: "tls", "cannot read the CA certificates in \(path): \(error)")
            }
        }
    }
}

import NIOSSL

/// Loads the server certificate and key into TLS contexts.
enum TLSFiles {
    /// Whether a listener asks providers for a client certificate.
    enum ClientCertificates {
        /// Not asked for (`--auth none`, and device connections).
        case ignored
        /// Asked for; a connection without one may still use a provider token. One that is
        /// presented must chain to `trustRoots`, or the handshake fails.
        case optional(trustRoots: [NIOSSLCertificate])
        /// Required, chaining to `trustRoots` (the binary gateway and feedback in strict mode).
        case required(trustRoots: [NIOSSLCertificate])
    }

    /// A server context offering `protocols` by ALPN, TLS 1.2 or newer.
    static func serverContext(
        certificatePath: String,
        privateKeyPath: String,
        protocols: [String],
        clientCertificates: ClientCertificates = .ignored
    ) throws -> NIOSSLContext {
        let chain = try NIOSSLCertificate.fromPEMFile(certificatePath).map { NIOSSLCertificateSource.certificate($0) }
        let key = try NIOSSLPrivateKey(file: privateKeyPath, format: .pem)
        var configuration = TLSConfiguration.makeServerConfiguration(certificateChain: chain, privateKey: .privateKey(key))
        configuration.minimumTLSVersion = .tlsv12
        configuration.applicationProtocols = protocols
        switch clientCertificates {
        case .ignored:
            configuration.certificateVerification = .none
        case .optional(let roots):
            configuration.certificateVerification = .optionalVerification
            configuration.trustRoots = .certificates(roots)
        case .required(let roots):
            configuration.certificateVerification = .noHostnameVerification
            configuration.trustRoots = .certificates(roots)
        }
        return try NIOSSLContext(configuration: configuration)
    }

    /// The CAs provider certificates may chain to: every certificate in each PEM file.
    static func trustRoots(_ paths: [String]) throws -> [NIOSSLCertificate] {
        try paths.flatMap { path in
            do {
                return try NIOSSLCertificate.fromPEMFile(path)
            } catch {
                throw ServerError(.tls, subject: "tls", "cannot read the CA certificates in \(path): \(error)")
            }
        }
    }
}

import NIOSSL

/// Loads the server certificate and key into TLS contexts.
enum TLSFiles {
    /// A server context offering `protocols` by ALPN, TLS 1.2 or newer.
    static func serverContext(certificatePath: String, privateKeyPath: String, protocols: [String]) throws -> NIOSSLContext {
        let chain = try NIOSSLCertificate.fromPEMFile(certificatePath).map { NIOSSLCertificateSource.certificate($0) }
        let key = try NIOSSLPrivateKey(file: privateKeyPath, format: .pem)
        var configuration = TLSConfiguration.makeServerConfiguration(certificateChain: chain, privateKey: .privateKey(key))
        configuration.minimumTLSVersion = .tlsv12
        configuration.applicationProtocols = protocols
        return try NIOSSLContext(configuration: configuration)
    }
}

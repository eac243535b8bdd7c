import APNsAuth

/// What a finished TLS handshake tells the listener about its client: the certificate it
/// presented (verified), and the application protocol ALPN settled on. A port that serves two
/// protocols (the binary gateway's, which serves channel management to a client offering `h2`)
/// chooses by the second.
struct TLSHandshake: Sendable {
    /// The provider's client certificate, if the listener asked for one and it verified.
    var certificate: ProviderCertificate?
    /// The protocol ALPN negotiated (`h2`), or nil when the client offered none this port speaks.
    var negotiatedProtocol: String?

    /// Whether the client asked for HTTP/2 by ALPN.
    var isHTTP2: Bool { self.negotiatedProtocol == "h2" }
}

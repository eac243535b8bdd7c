import APNsAuth
import APNsCore

/// What a finished TLS handshake tells the listener about its client: the certificate it
/// presented (verified), and the application protocol ALPN settled on. A port that serves two
/// protocols (the binary gateway's, which serves channel management to a client offering `h2`)
/// chooses by the second.
struct TLSHandshake: Sendable {
    /// The provider's client certificate, if the listener asked for one and it verified.
    var certificate: ProviderCertificate?
    /// The protocol ALPN negotiated (`h2`), or nil when the client offered none this port speaks.
    var negotiatedProtocol: String?
    /// The host name the client asked for by SNI, on a listener that reads it (the binary
    /// gateway's and feedback's: `gateway.push.apple.com` is production); nil otherwise.
    var serverName: String?

    /// The environment the client's SNI names (one of Apple's hosts), else `fallback`.
    func environment(or fallback: APNsEnvironment) -> APNsEnvironment {
        guard let name = self.serverName else { return fallback }
        return Array(name.utf8).withUnsafeBytes { APNsEnvironment(host: $0) } ?? fallback
    }

    /// Whether the client asked for HTTP/2 by ALPN.
    var isHTTP2: Bool { self.negotiatedProtocol == "h2" }
}

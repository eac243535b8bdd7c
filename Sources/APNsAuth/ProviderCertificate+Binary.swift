import APNsCore

extension ProviderCertificate {
    /// The certificate of a provider on a binary interface (gateway or feedback, named by
    /// `listener`) in strict mode, where the TLS handshake has required one (nil under
    /// `--auth none`); a certificate for the other environment ends the connection, as the
    /// binary interface has no way to say why.
    public static func binaryProvider(
        _ certificate: ProviderCertificate?,
        auth: AuthMode,
        environment: APNsEnvironment,
        listener: String
    ) throws(AuthError) -> ProviderCertificate? {
        guard auth == .strict else { return nil }
        guard let certificate else {
            throw AuthError(
                .certificates, "\(listener): the provider presented no client certificate (or one that could not be read)")
        }
        guard certificate.environments.contains(environment) else {
            let theirs = certificate.environments.map(\.rawValue).sorted().joined(separator: ", ")
            throw AuthError(
                .certificates, "\(listener): the provider's certificate is for \(theirs); this emulator plays \(environment)")
        }
        return certificate
    }
}

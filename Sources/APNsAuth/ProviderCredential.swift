import APNsCore

/// What a request authenticated with.
public enum ProviderCredential: Sendable {
    case certificate(ProviderCertificate)
    case token(VerifiedProviderToken)

    /// The topic a request without `apns-topic` goes to: a single-topic certificate's topic.
    public var defaultTopic: String? {
        guard case .certificate(let certificate) = self else { return nil }
        return certificate.defaultTopic
    }
}

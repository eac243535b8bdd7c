import APNsCore

/// Decides whether a provider request may go on to validation: the seam where certificate and
/// JWT provider-token authentication plug in.
public protocol ProviderAuthenticator: Sendable {
    /// `nil` lets the request through; a reason refuses it as APNs would (e.g. 403
    /// MissingProviderToken). Called on the connection's event loop, once per request: keep it cheap.
    func refusal(for request: PushRequest) -> Reason?
}

/// `--auth none`: every provider is accepted, with any `authorization` header or none.
public struct AcceptingAuthenticator: ProviderAuthenticator {
    public init() {}

    public func refusal(for request: PushRequest) -> Reason? { nil }
}

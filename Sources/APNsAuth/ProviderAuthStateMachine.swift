import APNsCore

/// The provider-authentication state of one HTTP/2 connection in strict mode, as a value:
/// which token the connection uses and since when, which team it is pinned to, and whether it
/// has authenticated yet (until then APNs allows a token-based connection one stream).
///
/// The handler asks ``authenticate(authorization:nowSeconds:verify:)`` before validating a
/// request and the static ``topic(for:credential:)`` after. Confined to the connection's event loop.
public struct ProviderAuthStateMachine: Sendable {
    /// The rules of one emulator.
    public struct Rules: Sendable {
        /// A token whose `iat` is older than this many seconds is `ExpiredProviderToken` (APNs: 3600).
        public var tokenLifetime: Int64 = 3600
        /// A connection may switch to a new token once per this many seconds (APNs: 1200).
        public var tokenUpdateInterval: Int64 = 1200
        /// The environment a request is judged in when it names none (its endpoint's).
        public var environment: APNsEnvironment = .development

        public init(tokenLifetime: Int64 = 3600, tokenUpdateInterval: Int64 = 1200, environment: APNsEnvironment = .development) {
            self.tokenLifetime = tokenLifetime
            self.tokenUpdateInterval = tokenUpdateInterval
            self.environment = environment
        }
    }

    public enum Decision: Sendable {
        /// Go on; `unlocksStreams` is set on the connection's first authenticated request.
        case allow(ProviderCredential, unlocksStreams: Bool)
        case refuse(Reason)
    }

    private let rules: Rules
    private let certificate: ProviderCertificate?
    private var current: (authorization: String, verified: VerifiedProviderToken, since: Int64)?
    private var teamID: String?
    /// Whether the connection is held to one stream: token-based connections are, until a
    /// request authenticates; a connection with a client certificate never is.
    public private(set) var streamsLimited: Bool

    public init(rules: Rules, certificate: ProviderCertificate?) {
        self.rules = rules
        self.certificate = certificate
        self.streamsLimited = certificate == nil
    }

    /// Decides who a request comes from. A request with an `authorization` header uses token
    /// authentication; one without uses the connection's certificate, if it has one.
    /// `environment`: the one the request is for (the Apple host its `:authority` names), else
    /// the endpoint's; certificates and keys scoped to the other are refused.
    public mutating func authenticate(
        authorization: String?,
        nowSeconds: Int64,
        environment: APNsEnvironment? = nil,
        verify: (String) -> ProviderTokenVerifier.Verdict
    ) -> Decision {
        let environment = environment ?? self.rules.environment
        let credential: ProviderCredential
        if let authorization {
            let verified: VerifiedProviderToken
            switch self.token(authorization, nowSeconds: nowSeconds, verify: verify) {
            case .success(let valid): verified = valid
            case .failure(let reason): return .refuse(reason)
            }
            if let scoped = verified.key.environment, scoped != environment {
                return .refuse(
                    Reason.badEnvironmentKeyIdInToken.explained(
                        "key \(verified.key.keyID) is for \(scoped.rawValue); this request is for \(environment.endpointName) (\(environment.providerHost)): sign with a key for \(environment.rawValue) or for both, or send to \(scoped.endpointName)"
                    ))
            }
            credential = .token(verified)
        } else if let certificate = self.certificate {
            guard !certificate.topics.isEmpty else { return .refuse(.badCertificate) }
            guard certificate.environments.contains(environment) else {
                return .refuse(
                    Reason.badCertificateEnvironment.explained(
                        "the client certificate is for \(certificate.environments.map(\.rawValue).sorted().joined(separator: " and ")); this request is for \(environment.endpointName) (\(environment.providerHost))"
                    ))
            }
            credential = .certificate(certificate)
        } else {
            return .refuse(.missingProviderToken)
        }
        let unlocks = self.streamsLimited
        self.streamsLimited = false
        return .allow(credential, unlocksStreams: unlocks)
    }

    /// ``authenticate(authorization:nowSeconds:environment:verify:)`` with the emulator's shared verifier.
    public mutating func authenticate(
        authorization: String?, nowSeconds: Int64, environment: APNsEnvironment? = nil, verifier: ProviderTokenVerifier
    ) -> Decision {
        self.authenticate(authorization: authorization, nowSeconds: nowSeconds, environment: environment) {
            verifier.verify(authorization: $0)
        }
    }

    private mutating func token(
        _ authorization: String,
        nowSeconds: Int64,
        verify: (String) -> ProviderTokenVerifier.Verdict
    ) -> Result<VerifiedProviderToken, Reason> {
        // The connection's own token is checked only for age: it was verified when adopted.
        if let current = self.current, current.authorization == authorization {
            guard nowSeconds - current.verified.token.issuedAt <= self.rules.tokenLifetime else {
                return .failure(self.expired(current.verified, nowSeconds: nowSeconds))
            }
            return .success(current.verified)
        }
        let verified: VerifiedProviderToken
        switch verify(authorization) {
        case .valid(let valid): verified = valid
        case .invalid(let reason): return .failure(reason)
        }
        if let teamID = self.teamID, teamID != verified.token.teamID {
            return .failure(
                Reason.invalidProviderToken.explained(
                    "this connection's tokens are from team \(teamID); this one is from \(verified.token.teamID)"))
        }
        // The first key a connection used binds it: another key is taken only when both are the
        // team's own (team-scoped) keys; a topic-specific key is unrelated to any other.
        if let bound = self.current?.verified.key, bound.keyID != verified.key.keyID,
            !(bound.topics.isEmpty && verified.key.topics.isEmpty)
        {
            let scoped = bound.topics.isEmpty ? verified.key.keyID : bound.keyID
            return .failure(
                Reason.unrelatedKeyIdInToken.explained(
                    "this connection is bound to key \(bound.keyID), the first it used; key \(verified.key.keyID) is unrelated (\(scoped) is topic-specific): open a new connection for it"
                ))
        }
        guard nowSeconds - verified.token.issuedAt <= self.rules.tokenLifetime else {
            return .failure(self.expired(verified, nowSeconds: nowSeconds))
        }
        // Replacing a token that has expired is never too many updates: it is what the provider must do.
        if let current = self.current, nowSeconds - current.since < self.rules.tokenUpdateInterval,
            nowSeconds - current.verified.token.issuedAt <= self.rules.tokenLifetime
        {
            let since = nowSeconds - current.since
            return .failure(
                Reason.tooManyProviderTokenUpdates.explained(
                    "this connection took its current token \(since) s ago, and it has not expired; a connection may change its token at most once every \(self.rules.tokenUpdateInterval) s"
                ))
        }
        self.current = (authorization, verified, nowSeconds)
        self.teamID = verified.token.teamID
        return .success(verified)
    }

    private func expired(_ verified: VerifiedProviderToken, nowSeconds: Int64) -> Reason {
        let age = nowSeconds - verified.token.issuedAt
        return Reason.expiredProviderToken.explained(
            "the token's iat is \(age) s old (key \(verified.key.keyID)); tokens last \(self.rules.tokenLifetime) s: sign a new one"
        )
    }

    /// Why a push of this type may not go under this credential: location pushes need token-based
    /// authentication (a certificate-authenticated one is refused as missing its provider token).
    public static func refusal(of pushType: PushType, credential: ProviderCredential) -> Reason? {
        guard pushType == .location, case .certificate = credential else { return nil }
        return Reason.missingProviderToken.explained(
            "location pushes need token-based authentication: sign a provider token (JWT) instead of using the client certificate"
        )
    }

    /// The topic a validated request goes to under its credential, or why it may not. Depends on
    /// the credential alone, so the connection's state is not touched.
    public static func topic(for requested: String?, credential: ProviderCredential) -> Result<String?, Reason> {
        switch credential {
        case .certificate(let certificate):
            guard let requested else {
                guard let topic = certificate.defaultTopic else { return .failure(.missingTopic) }
                return .success(topic)
            }
            guard certificate.topics.contains(requested) else {
                // Apple (forum thread 712499): certificate-based authentication is not supported for
                // Live Activity pushes; a certificate with more topics would not help.
                guard requested.hasSuffix(".push-type.liveactivity") else { return .failure(.topicDisallowed) }
                return .failure(
                    Reason.topicDisallowed.explained(
                        "Live Activity pushes need token-based authentication (certificate-based authentication is not supported for them): sign a provider token (JWT) instead of using the client certificate"
                    ))
            }
            return .success(requested)
        case .token(let verified):
            // The validator has already refused a token-based request without a topic.
            guard let requested else { return .failure(.missingTopic) }
            guard verified.key.allows(topic: requested) else {
                let allowed = verified.key.topics.joined(separator: ", ")
                return .failure(
                    Reason.unrelatedKeyIdInToken.explained(
                        "key \(verified.key.keyID) does not allow topic \(requested) (it allows \(allowed))"))
            }
            return .success(requested)
        }
    }
}

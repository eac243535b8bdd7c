import APNsCore
import Crypto
import Testing

@testable import APNsAuth

@Suite("Provider authentication state machine")
struct ProviderAuthStateMachineTests {
    typealias Machine = ProviderAuthStateMachine

    static let key = ProviderKey(keyID: "KEY1234567", teamID: "TEAM123456", publicKey: P256.Signing.PrivateKey().publicKey)

    static func verified(_ iat: Int64, team: String = "TEAM123456", key: ProviderKey = key) -> ProviderTokenVerifier.Verdict {
        .valid(
            VerifiedProviderToken(
                token: ProviderToken(keyID: key.keyID, teamID: team, issuedAt: iat, signingInput: [], signature: []), key: key))
    }

    func reason(_ decision: Machine.Decision) -> Reason? {
        if case .refuse(let reason) = decision { return reason }
        return nil
    }

    @Test("a connection verifies its token once, however many requests carry it; the first unlocks streams")
    func verifiesOnce() {
        var machine = Machine(rules: .init(), certificate: nil)
        #expect(machine.streamsLimited)
        var calls = 0
        let verify: (String) -> ProviderTokenVerifier.Verdict = { _ in
            calls += 1
            return Self.verified(1000)
        }
        guard
            case .allow(_, unlocksStreams: true) = machine.authenticate(
                authorization: "bearer a", nowSeconds: 1000, verify: verify)
        else {
            Issue.record("the first request should authenticate and unlock streams")
            return
        }
        for second in 1001...1100 {
            guard
                case .allow(_, unlocksStreams: false) = machine.authenticate(
                    authorization: "bearer a", nowSeconds: Int64(second), verify: verify)
            else {
                Issue.record("request at \(second) refused")
                return
            }
        }
        #expect(calls == 1)
        #expect(!machine.streamsLimited)
    }

    @Test("the token's age is checked on every request, against the configured lifetime")
    func lifetime() {
        var machine = Machine(rules: .init(tokenLifetime: 10, tokenUpdateInterval: 5), certificate: nil)
        let verify: (String) -> ProviderTokenVerifier.Verdict = { _ in Self.verified(100) }
        #expect(self.reason(machine.authenticate(authorization: "bearer a", nowSeconds: 110, verify: verify)) == nil)
        #expect(
            self.reason(machine.authenticate(authorization: "bearer a", nowSeconds: 111, verify: verify)) == .expiredProviderToken
        )
    }

    @Test("a new token is refused within the update interval and keeps the old one; after it, it is adopted")
    func updates() {
        var machine = Machine(rules: .init(tokenLifetime: 3600, tokenUpdateInterval: 1200), certificate: nil)
        let verify: (String) -> ProviderTokenVerifier.Verdict = { $0 == "bearer a" ? Self.verified(0) : Self.verified(500) }
        #expect(self.reason(machine.authenticate(authorization: "bearer a", nowSeconds: 0, verify: verify)) == nil)
        #expect(
            self.reason(machine.authenticate(authorization: "bearer b", nowSeconds: 1199, verify: verify))
                == .tooManyProviderTokenUpdates)
        #expect(self.reason(machine.authenticate(authorization: "bearer a", nowSeconds: 1199, verify: verify)) == nil)
        #expect(self.reason(machine.authenticate(authorization: "bearer b", nowSeconds: 1200, verify: verify)) == nil)
        // Now "a" would be a change again.
        #expect(
            self.reason(machine.authenticate(authorization: "bearer a", nowSeconds: 1300, verify: verify))
                == .tooManyProviderTokenUpdates)
    }

    @Test(
        "issue 52: replacing a token that expired is never TooManyProviderTokenUpdates, however soon; the refusal of an early change says the token was taken, not changed"
    )
    func replacingAnExpiredToken() {
        // --token-lifetime 3 with the default update interval: the provider signs anew after ExpiredProviderToken.
        var machine = Machine(rules: .init(tokenLifetime: 3, tokenUpdateInterval: 1200), certificate: nil)
        let verify: (String) -> ProviderTokenVerifier.Verdict = { $0 == "bearer a" ? Self.verified(0) : Self.verified(5) }
        #expect(self.reason(machine.authenticate(authorization: "bearer a", nowSeconds: 0, verify: verify)) == nil)
        #expect(
            self.reason(machine.authenticate(authorization: "bearer a", nowSeconds: 5, verify: verify)) == .expiredProviderToken)
        #expect(self.reason(machine.authenticate(authorization: "bearer b", nowSeconds: 5, verify: verify)) == nil)
        // A change while the token is still good is refused, in words that say what happened.
        var early = Machine(rules: .init(tokenLifetime: 3600, tokenUpdateInterval: 1200), certificate: nil)
        _ = early.authenticate(authorization: "bearer a", nowSeconds: 0, verify: verify)
        let refused = self.reason(early.authenticate(authorization: "bearer b", nowSeconds: 5, verify: verify))
        #expect(refused == .tooManyProviderTokenUpdates)
        #expect(
            refused?.explanation.contains("took its current token 5 s ago, and it has not expired") == true,
            "\(String(describing: refused))")
    }

    @Test("the team is pinned by the first token; an invalid token is refused with its verdict")
    func team() {
        var machine = Machine(rules: .init(tokenUpdateInterval: 0), certificate: nil)
        #expect(self.reason(machine.authenticate(authorization: "bearer a", nowSeconds: 0) { _ in Self.verified(0) }) == nil)
        #expect(
            self.reason(
                machine.authenticate(authorization: "bearer b", nowSeconds: 1) { _ in Self.verified(0, team: "OTHERTEAM1") })
                == .invalidProviderToken)
        #expect(
            self.reason(machine.authenticate(authorization: "bearer c", nowSeconds: 2) { _ in .invalid(.invalidProviderToken) })
                == .invalidProviderToken)
    }

    @Test(
        "the first key binds the connection: another team key is taken, a topic-specific one is UnrelatedKeyIdInToken (and so is any key after one)"
    )
    func boundKey() {
        // "Establishing a token-based connection to APNs": team-scoped and topic-specific keys; a
        // connection is bound to the first key it uses (APNS-REFERENCE: an unrelated key later gets 403).
        let teamKey = ProviderKey(keyID: "TEAMKEY002", teamID: "TEAM123456", publicKey: P256.Signing.PrivateKey().publicKey)
        let scoped = ProviderKey(
            keyID: "SCOPED0001", teamID: "TEAM123456", publicKey: P256.Signing.PrivateKey().publicKey, topics: ["com.example.app"]
        )
        var machine = Machine(rules: .init(tokenUpdateInterval: 0), certificate: nil)
        #expect(self.reason(machine.authenticate(authorization: "bearer a", nowSeconds: 0) { _ in Self.verified(0) }) == nil)
        #expect(
            self.reason(machine.authenticate(authorization: "bearer b", nowSeconds: 1) { _ in Self.verified(0, key: teamKey) })
                == nil)
        #expect(
            self.reason(machine.authenticate(authorization: "bearer c", nowSeconds: 2) { _ in Self.verified(0, key: scoped) })
                == .unrelatedKeyIdInToken)

        var topicFirst = Machine(rules: .init(tokenUpdateInterval: 0), certificate: nil)
        #expect(
            self.reason(topicFirst.authenticate(authorization: "bearer c", nowSeconds: 0) { _ in Self.verified(0, key: scoped) })
                == nil)
        let refused = self.reason(topicFirst.authenticate(authorization: "bearer a", nowSeconds: 1) { _ in Self.verified(0) })
        #expect(refused == .unrelatedKeyIdInToken)
        #expect(refused?.explanation.contains("bound to key SCOPED0001") == true)
        // The same key with a fresh token is the same key.
        #expect(
            self.reason(topicFirst.authenticate(authorization: "bearer d", nowSeconds: 2) { _ in Self.verified(1, key: scoped) })
                == nil)
    }

    @Test("certificates: no topic, wrong environment, default topic, disallowed topic; never stream-limited")
    func certificates() throws {
        let single = ProviderCertificate(topics: ["com.example.app"], environments: [.development])
        var machine = Machine(rules: .init(environment: .development), certificate: single)
        #expect(!machine.streamsLimited)
        guard
            case .allow(let credential, unlocksStreams: false) = machine.authenticate(
                authorization: nil, nowSeconds: 0, verify: { _ in .invalid(.internalServerError) })
        else {
            Issue.record("a valid certificate should authenticate")
            return
        }
        #expect(try Machine.topic(for: nil, credential: credential).get() == "com.example.app")
        #expect(throws: Reason.topicDisallowed) { try Machine.topic(for: "com.example.other", credential: credential).get() }
        let multi = ProviderCertificate(topics: ["com.example.app", "com.example.app.voip"])
        #expect(throws: Reason.missingTopic) { try Machine.topic(for: nil, credential: .certificate(multi)).get() }

        var noTopics = Machine(rules: .init(), certificate: ProviderCertificate(topics: []))
        #expect(
            self.reason(noTopics.authenticate(authorization: nil, nowSeconds: 0) { _ in .invalid(.internalServerError) })
                == .badCertificate)
        var production = Machine(
            rules: .init(environment: .development), certificate: ProviderCertificate(topics: ["a"], environments: [.production]))
        #expect(
            self.reason(production.authenticate(authorization: nil, nowSeconds: 0) { _ in .invalid(.internalServerError) })
                == .badCertificateEnvironment)
    }
}

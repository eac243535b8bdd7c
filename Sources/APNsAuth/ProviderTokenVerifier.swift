import APNsCore
import Crypto
import Synchronization

/// Checks provider tokens with swift-crypto and remembers the answer, so that each distinct token
/// is verified once however many requests and connections carry it. Thread-safe.
public final class ProviderTokenVerifier: Sendable {
    /// What a token turned out to be.
    public enum Verdict: Sendable {
        case valid(VerifiedProviderToken)
        case invalid(Reason)
    }

    /// The most verdicts remembered; the cache starts over when it is full.
    static let cacheLimit = 10_000

    public let keys: ProviderKeyStore
    private let cache = Mutex([String: Verdict]())

    public init(keys: ProviderKeyStore) {
        self.keys = keys
    }

    /// The verdict on an `authorization` header value. Does not look at `iat`: expiry depends on
    /// the time of each request, not on the token.
    public func verify(authorization: String?) -> Verdict {
        guard let authorization else { return .invalid(.missingProviderToken) }
        if let cached = self.cache.withLock({ $0[authorization] }) { return cached }
        let token: ProviderToken
        switch ProviderToken.parse(authorization: authorization) {
        case .success(let parsed): token = parsed
        case .failure(let reason): return self.remember(.invalid(reason), for: authorization)
        }
        // Not remembered: the key may be registered a moment from now.
        guard let key = self.keys.key(id: token.keyID) else {
            return .invalid(
                Reason.invalidProviderToken.explained(
                    "no key \(token.keyID) (the token's kid) in the key store: apns-emulator keys create or keys import"))
        }
        guard key.teamID == token.teamID else {
            return self.remember(
                .invalid(
                    Reason.invalidProviderToken.explained(
                        "the token's iss \(token.teamID) is not the team of key \(key.keyID) (\(key.teamID))")),
                for: authorization)
        }
        guard let signature = Self.signature(token.signature),
            (try? key.publicKey)?.isValidSignature(signature, for: token.signingInput) == true
        else {
            return self.remember(
                .invalid(Reason.invalidProviderToken.explained("the signature does not verify with key \(key.keyID)")),
                for: authorization)
        }
        return self.remember(.valid(VerifiedProviderToken(token: token, key: key)), for: authorization)
    }

    /// The token's ECDSA signature: JWS's 64-byte `r || s`, or the DER (ASN.1) form some provider
    /// libraries sign with and APNs accepts all the same.
    static func signature(_ bytes: [UInt8]) -> P256.Signing.ECDSASignature? {
        if bytes.count == 64, let raw = try? P256.Signing.ECDSASignature(rawRepresentation: bytes) { return raw }
        return try? P256.Signing.ECDSASignature(derRepresentation: bytes)
    }

    private func remember(_ verdict: Verdict, for authorization: String) -> Verdict {
        self.cache.withLock { cache in
            if cache.count >= Self.cacheLimit { cache.removeAll(keepingCapacity: true) }
            cache[authorization] = verdict
        }
        return verdict
    }
}

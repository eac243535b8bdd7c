import APNsCore
import Crypto
import Foundation
import Testing

@testable import APNsAuth

/// What APNs accepts in a provider token though it is not the JWS norm, and what it still
/// refuses (issue 13, item 8).
@Suite("Provider token leniency")
struct ProviderTokenLeniencyTests {
    static let keyID = "KEY1234567"
    static let teamID = "TEAM123456"

    /// A verifier whose key store holds `key`'s public half, in a temporary directory.
    func verifier(for key: P256.Signing.PrivateKey) throws -> (ProviderTokenVerifier, String) {
        let directory = FileManager.default.temporaryDirectory.path + "/apns-keys-\(UUID().uuidString)"
        try ProviderKeyStore.register(
            ProviderKey(keyID: Self.keyID, teamID: Self.teamID, publicKey: key.publicKey), in: directory)
        return (ProviderTokenVerifier(keys: try ProviderKeyStore(directory: directory)), directory)
    }

    /// A JWT with the given header and claims JSON, signed by `key`, its signature in DER when `der`.
    func jwt(header: String, claims: String, key: P256.Signing.PrivateKey, der: Bool = false) throws -> String {
        let input = Base64URL.encode(Array(header.utf8)) + "." + Base64URL.encode(Array(claims.utf8))
        let signature = try key.signature(for: Array(input.utf8))
        return input + "." + Base64URL.encode(Array(der ? signature.derRepresentation : signature.rawRepresentation))
    }

    func verdict(_ verifier: ProviderTokenVerifier, _ jwt: String) -> Reason? {
        switch verifier.verify(authorization: "bearer " + jwt) {
        case .valid: return nil
        case .invalid(let reason): return reason
        }
    }

    @Test("a DER-encoded ES256 signature verifies, as the 64-byte r||s form does; a wrong one does not")
    func derSignatures() throws {
        let key = P256.Signing.PrivateKey()
        let (verifier, directory) = try self.verifier(for: key)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let header = #"{"alg":"ES256","kid":"\#(Self.keyID)"}"#
        let claims = #"{"iss":"\#(Self.teamID)","iat":1800000000}"#
        #expect(self.verdict(verifier, try self.jwt(header: header, claims: claims, key: key, der: true)) == nil)
        #expect(self.verdict(verifier, try self.jwt(header: header, claims: claims, key: key)) == nil)
        let stranger = P256.Signing.PrivateKey()
        #expect(
            self.verdict(verifier, try self.jwt(header: header, claims: claims, key: stranger, der: true))
                == .invalidProviderToken)
    }

    @Test("iat as a string of digits is taken; other strings, and a missing iat, are not")
    func stringIssuedAt() throws {
        let key = P256.Signing.PrivateKey()
        let header = #"{"alg":"ES256","kid":"\#(Self.keyID)"}"#
        let parsed = try ProviderToken.parse(
            authorization: "bearer " + self.jwt(header: header, claims: #"{"iss":"T","iat":"1800000000"}"#, key: key)
        ).get()
        #expect(parsed.issuedAt == 1_800_000_000)
        for claims in [#"{"iss":"T","iat":"soon"}"#, #"{"iss":"T","iat":"-5"}"#, #"{"iss":"T","iat":""}"#, #"{"iss":"T"}"#] {
            let jwt = try self.jwt(header: header, claims: claims, key: key)
            #expect(throws: Reason.invalidProviderToken, "\(claims)") {
                try ProviderToken.parse(authorization: "bearer " + jwt).get()
            }
        }
    }

    @Test("typ present or absent is fine; an algorithm other than ES256 is still refused")
    func headerFields() throws {
        let key = P256.Signing.PrivateKey()
        let claims = #"{"iss":"T","iat":1800000000}"#
        let typed = try self.jwt(header: #"{"alg":"ES256","kid":"K","typ":"JWT"}"#, claims: claims, key: key)
        #expect((try? ProviderToken.parse(authorization: "bearer " + typed).get()) != nil)
        let hs256 = try self.jwt(header: #"{"alg":"HS256","kid":"K"}"#, claims: claims, key: key)
        #expect(throws: Reason.invalidProviderToken) { try ProviderToken.parse(authorization: "bearer " + hs256).get() }
    }

    @Test(
        "the rest of the audit: Bearer in any case, fractional iat, extra claims and header fields are taken; padding, a missing kid or iss are not"
    )
    func audit() throws {
        let key = P256.Signing.PrivateKey()
        let header = #"{"alg":"ES256","kid":"K"}"#
        func parses(_ authorization: String) -> Bool { (try? ProviderToken.parse(authorization: authorization).get()) != nil }
        let plain = try self.jwt(header: header, claims: #"{"iss":"T","iat":1800000000}"#, key: key)
        #expect(parses("Bearer " + plain) && parses("BEARER " + plain) && parses("bearer  " + plain))
        // Python providers passing time.time() unrounded; RFC 7519 NumericDate allows fractions.
        let fractional = try ProviderToken.parse(
            authorization: "bearer " + self.jwt(header: header, claims: #"{"iss":"T","iat":1800000000.75}"#, key: key)
        ).get()
        #expect(fractional.issuedAt == 1_800_000_000)
        // Claims and header fields APNs does not use are ignored, as JWT libraries add them.
        #expect(
            parses(
                "bearer "
                    + (try self.jwt(
                        header: #"{"alg":"ES256","kid":"K","typ":"JWT","x5t":"abc"}"#,
                        claims: #"{"iss":"T","iat":1800000000,"exp":1800003600,"aud":"apns"}"#, key: key))))
        // RFC 7515 base64url has no padding; a padded segment is not a JWS compact serialization.
        #expect(!parses("bearer " + plain.replacingOccurrences(of: ".", with: "=.")))
        #expect(
            !parses("bearer " + (try self.jwt(header: #"{"alg":"ES256"}"#, claims: #"{"iss":"T","iat":1800000000}"#, key: key))))
        #expect(!parses("bearer " + (try self.jwt(header: header, claims: #"{"iat":1800000000}"#, key: key))))
        #expect(!parses("basic " + plain))
    }
}

import Crypto
import Foundation
import Testing

@testable import APNsAuth

/// The VAPID rules Apple's push service enforces (403 BadJwtToken), each with its source: Apple,
/// "Sending web push notifications in web apps and browsers" (missing JWT, wrong key, subject not a
/// URL or mailto:, audience not the push service's origin, exp more than a day ahead); Apple
/// Developer Forums thread 725473 ("mailto: <address>"); web-push-libs/web-push #947
/// (mailto:…@localhost) and #787 (https://localhost).
@Suite("VAPID as Apple's push service checks it (RFC 8292)")
struct VAPIDCredentialTests {
    static let origin = "https://localhost:8443"
    static let now: Int64 = 1_800_000_000
    let key = P256.Signing.PrivateKey()
    var publicKey: [UInt8] { Array(self.key.publicKey.x963Representation) }

    func authorization(
        claims: String, key signing: P256.Signing.PrivateKey? = nil, k: [UInt8]? = nil, alg: String = "ES256"
    ) throws -> String {
        let header = Base64URL.encode(Array(#"{"typ":"JWT","alg":"\#(alg)"}"#.utf8))
        let input = header + "." + Base64URL.encode(Array(claims.utf8))
        let signature = try (signing ?? self.key).signature(for: Array(input.utf8))
        return
            "vapid t=\(input).\(Base64URL.encode(Array(signature.rawRepresentation))), k=\(Base64URL.encode(k ?? self.publicKey))"
    }

    func check(_ authorization: String?) -> Result<VAPIDCredential, WebPushRefusal> {
        VAPIDCredential.check(
            authorization: authorization, origin: Self.origin, applicationServerKey: self.publicKey, nowSeconds: Self.now)
    }

    func claims(aud: String = origin, exp: Int64 = now + 3600, sub: String = "mailto:ops@example.com") -> String {
        #"{"aud":"\#(aud)","exp":\#(exp),"sub":"\#(sub)"}"#
    }

    func refusal(_ authorization: String?) -> String {
        guard case .failure(let refusal) = self.check(authorization) else { return "accepted" }
        #expect(refusal.status == 403 && refusal.reason == "BadJwtToken")
        return refusal.explanation
    }

    @Test("a well-made token is accepted, with its subject and expiry")
    func accepted() throws {
        let credential = try self.check(try self.authorization(claims: self.claims())).get()
        #expect(credential.subject == "mailto:ops@example.com" && credential.expiresAt == Self.now + 3600)
        #expect(
            try self.check(try self.authorization(claims: self.claims(sub: "https://example.com/contact"))).get().audience
                == Self.origin)
    }

    @Test("Apple's list: missing, wrong key, subject not a URL or mailto:, wrong audience, exp more than a day ahead")
    mutating func applesList() throws {
        #expect(self.refusal(nil).contains("missing"))
        #expect(self.refusal("WebPush abc").contains("scheme"))
        let other = P256.Signing.PrivateKey()
        #expect(self.refusal(try self.authorization(claims: self.claims(), key: other)).contains("wrong private key"))
        #expect(
            self.refusal(try self.authorization(claims: self.claims(), key: other, k: Array(other.publicKey.x963Representation)))
                .contains("applicationServerKey"))
        #expect(
            self.refusal(try self.authorization(claims: self.claims(sub: "ops@example.com"))).contains("isn't a URL or mailto:"))
        #expect(self.refusal(try self.authorization(claims: self.claims(aud: "https://web.push.apple.com"))).contains("audience"))
        #expect(self.refusal(try self.authorization(claims: self.claims(exp: Self.now + 86_401))).contains("more than one day"))
        #expect(self.check(try self.authorization(claims: self.claims(exp: Self.now + 86_400))).isSuccess)
        #expect(self.refusal(try self.authorization(claims: self.claims(exp: Self.now - 1))).contains("expired"))
        #expect(self.refusal(try self.authorization(claims: self.claims(), alg: "ES384")).contains("ES256"))
    }

    @Test("the causes real servers hit: mailto: with a space or brackets, a localhost contact")
    func threads() throws {
        #expect(
            self.refusal(try self.authorization(claims: self.claims(sub: "mailto: <ops@example.com>"))).contains("angle brackets")
        )
        #expect(self.refusal(try self.authorization(claims: self.claims(sub: "mailto:openclaw@localhost"))).contains("localhost"))
        #expect(self.refusal(try self.authorization(claims: self.claims(sub: "https://localhost:3000"))).contains("localhost"))
        #expect(
            self.refusal(try self.authorization(claims: self.claims(sub: "http://example.com"))).contains(
                "isn't a URL or mailto:"))
    }
}

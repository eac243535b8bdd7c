import APNsCore
import APNsTestSupport
import Crypto
import Testing

@testable import APNsAuth

/// What providers and application servers send that the emulator must read without trusting it
/// (issue 71: JWT parsing and Web Push decryption were not fuzzed): a provider token, a VAPID
/// `Authorization`, an `aes128gcm` body, each made valid and then cut, flipped and padded at
/// random. Whatever arrives: no crash, the same verdict twice, a refusal of APNs' or Apple's push
/// service's kind, and nothing altered ever passes as the original (a signature still verifies
/// only over the original's bytes; a body still opens only to the original's plaintext).
@Suite("Fuzzing: provider tokens, VAPID and Web Push bodies")
struct AuthFuzzTests {
    static let cases = 1500

    /// `bytes` with one of: a byte flipped, cut short, bytes added, a run duplicated, a byte set.
    static func mutate(_ bytes: [UInt8], _ random: inout SeededGenerator) -> [UInt8] {
        guard !bytes.isEmpty else { return [UInt8.random(in: 0...255, using: &random)] }
        var mutated = bytes
        let at = Int.random(in: 0..<bytes.count, using: &random)
        switch Int.random(in: 0..<5, using: &random) {
        case 0: mutated[at] ^= UInt8(1) << UInt8.random(in: 0...7, using: &random)
        case 1: mutated.removeLast(Int.random(in: 1...bytes.count, using: &random))
        case 2:
            mutated.insert(
                contentsOf: (0..<Int.random(in: 1...8, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) },
                at: at)
        case 3: mutated.insert(contentsOf: bytes[at..<min(bytes.count, at + 8)], at: at)
        default: mutated[at] = Array("._-=+/ A0z".utf8).randomElement(using: &random) ?? 0
        }
        return mutated
    }

    /// Each of `cases` mutations of `original` (``mutate(_:_:)``, from `seed`), handed to `body`
    /// with the words a failure names its case by.
    static func forEachMutation(
        of original: [UInt8], seed: UInt64, _ body: (_ mutated: [UInt8], _ context: String) throws -> Void
    ) rethrows {
        var random = SeededGenerator(state: seed)
        for index in 0..<Self.cases {
            try body(Self.mutate(original, &random), "case \(index) of seed \(String(seed, radix: 16))")
        }
    }

    @Test(
        "provider tokens: only the untouched signature verifies; a refusal is Missing- or InvalidProviderToken",
        arguments: SeededGenerator.seeds(fixed: 0x7A11_0C3E))
    func providerTokens(seed: UInt64) throws {
        let key = P256.Signing.PrivateKey()
        let jwt = try ProviderToken.sign(keyID: "KEY1234567", teamID: "TEAM123456", issuedAt: 1_800_000_000, with: key)
        let original = try ProviderToken.parse(authorization: "bearer " + jwt).get()
        var (parsed, refused) = (0, 0)
        Self.forEachMutation(of: Array(("bearer " + jwt).utf8), seed: seed) { mutated, context in
            let authorization = String(decoding: mutated, as: UTF8.self)
            let context = "\(context): \(authorization)"
            switch ProviderToken.parse(authorization: authorization) {
            case .success(let token):
                parsed += 1
                let signature = ProviderTokenVerifier.signature(token.signature)
                if let signature, key.publicKey.isValidSignature(signature, for: token.signingInput) {
                    #expect(token.signingInput == original.signingInput && token.signature == original.signature, "\(context)")
                }
            case .failure(let reason):
                refused += 1
                #expect(reason == .missingProviderToken || reason == .invalidProviderToken, "\(context): \(reason.wire)")
                #expect(ProviderToken.parse(authorization: authorization) == .failure(reason), "\(context)")
            }
        }
        #expect(parsed > 0 && refused > Self.cases / 4, "parsed \(parsed), refused \(refused)")
    }

    @Test(
        "VAPID: a refusal is 403 BadJwtToken; an acceptance is for the subscription's own key",
        arguments: SeededGenerator.seeds(fixed: 0x5A1D_7E57))
    func vapid(seed: UInt64) throws {
        let key = P256.Signing.PrivateKey()
        let publicKey = Array(key.publicKey.x963Representation)
        let origin = "https://localhost:8443"
        let claims = #"{"aud":"\#(origin)","exp":1800003600,"sub":"mailto:ops@example.com"}"#
        let input = Base64URL.encode(Array(#"{"typ":"JWT","alg":"ES256"}"#.utf8)) + "." + Base64URL.encode(Array(claims.utf8))
        let signature = Base64URL.encode(Array(try key.signature(for: Array(input.utf8)).rawRepresentation))
        let valid = "vapid t=\(input).\(signature), k=\(Base64URL.encode(publicKey))"
        var refused = 0
        Self.forEachMutation(of: Array(valid.utf8), seed: seed) { mutated, context in
            let authorization = String(decoding: mutated, as: UTF8.self)
            let check = VAPIDCredential.check(
                authorization: authorization, origin: origin, applicationServerKey: publicKey, nowSeconds: 1_800_000_000)
            let context = "\(context): \(authorization)"
            switch check {
            case .success(let credential):
                #expect(credential.publicKey == publicKey && credential.audience == origin, "\(context)")
            case .failure(let refusal):
                refused += 1
                #expect(refusal.status == 403 && refusal.reason == "BadJwtToken", "\(context)")
                #expect(!refusal.explanation.isEmpty, "\(context)")
            }
        }
        #expect(refused > Self.cases / 2, "refused \(refused)")
    }

    @Test(
        "aes128gcm bodies: an altered body opens to the original plaintext or not at all",
        arguments: SeededGenerator.seeds(fixed: 0xAE51_28C9))
    func webPushBodies(seed: UInt64) throws {
        var random = SeededGenerator(state: seed)
        let receiver = P256.KeyAgreement.PrivateKey()
        let authSecret = (0..<16).map { _ in UInt8.random(in: 0...255, using: &random) }
        let salt = (0..<16).map { _ in UInt8.random(in: 0...255, using: &random) }
        let plaintext = Array(#"{"web_push":8030,"notification":{"title":"Sale","navigate":"https://shop.example"}}"#.utf8)
        let body = try WebPushEncryption.encrypt(
            plaintext, receiverKey: Array(receiver.publicKey.x963Representation), authSecret: authSecret, salt: salt,
            senderKey: P256.KeyAgreement.PrivateKey())
        #expect(try WebPushEncryption.decrypt(body, privateKey: receiver, authSecret: authSecret).get() == plaintext)
        var refused = 0
        Self.forEachMutation(of: body, seed: seed) { mutated, context in
            switch WebPushEncryption.decrypt(mutated, privateKey: receiver, authSecret: authSecret) {
            case .success(let opened):
                #expect(opened == plaintext, "\(context) opened to other bytes")
            case .failure(let failure):
                refused += 1
                #expect(!failure.description.isEmpty)
            }
        }
        #expect(refused > Self.cases / 2, "refused \(refused)")
    }
}

import APNsCore
import Crypto
import Testing

@testable import APNsAuth

@Suite("Provider tokens and certificate topics")
struct ProviderTokenTests {
    @Test("a signed token parses back, whatever the case of 'bearer'; its signature verifies against its key only")
    func roundTrip() throws {
        let key = P256.Signing.PrivateKey()
        let jwt = try ProviderToken.sign(keyID: "KEY1234567", teamID: "TEAM123456", issuedAt: 1_800_000_000, with: key)
        let token = try ProviderToken.parse(authorization: "Bearer " + jwt).get()
        #expect(token.keyID == "KEY1234567")
        #expect(token.teamID == "TEAM123456")
        #expect(token.issuedAt == 1_800_000_000)
        let signature = try P256.Signing.ECDSASignature(rawRepresentation: token.signature)
        #expect(key.publicKey.isValidSignature(signature, for: token.signingInput))
        #expect(!P256.Signing.PrivateKey().publicKey.isValidSignature(signature, for: token.signingInput))
    }

    @Test("not bearer is MissingProviderToken; broken JWTs are InvalidProviderToken")
    func malformed() {
        #expect(throws: Reason.missingProviderToken) { try ProviderToken.parse(authorization: nil).get() }
        #expect(throws: Reason.missingProviderToken) { try ProviderToken.parse(authorization: "Basic abc").get() }
        for broken in ["bearer x", "bearer a.b.c", "bearer e30.e30.", "bearer eyJhbGciOiJFUzI1NiJ9.e30.AAAA"] {
            #expect(throws: Reason.invalidProviderToken, "\(broken)") { try ProviderToken.parse(authorization: broken).get() }
        }
    }

    @Test("Apple's topics extension round-trips; only the topic strings are read")
    func topicsExtension() throws {
        let bytes = try ProviderCertificate.encodeTopics([("com.example.app", "app"), ("com.example.app.voip", "voip")])
        #expect(ProviderCertificate.decodeTopics(bytes[...]) == ["com.example.app", "com.example.app.voip"])
        #expect(ProviderCertificate.decodeTopics([0x30, 0x03, 0x0C][...]).isEmpty)
    }

    @Test("a key scoped to a bundle id allows its suffixed topics, not look-alikes")
    func keyScope() {
        let key = ProviderKey(
            keyID: "K", teamID: "T", publicKey: P256.Signing.PrivateKey().publicKey, topics: ["com.example.app"])
        #expect(key.allows(topic: "com.example.app"))
        #expect(key.allows(topic: "com.example.app.voip"))
        #expect(!key.allows(topic: "com.example.application"))
        #expect(!key.allows(topic: "com.example"))
    }
}

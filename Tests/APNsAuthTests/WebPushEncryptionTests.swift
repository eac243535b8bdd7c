import Crypto
import Foundation
import Testing

@testable import APNsAuth

/// RFC 8291 (Message Encryption for Web Push), Appendix A: the example's keys, salt and body.
@Suite("Web Push message encryption (RFC 8291, aes128gcm)")
struct WebPushEncryptionTests {
    static func bytes(_ text: String) -> [UInt8] { Base64URL.decode(text.utf8) ?? [] }

    static let plaintext = Array("When I grow up, I want to be a watermelon".utf8)
    static let senderPrivate = bytes("yfWPiYE-n46HLnH0KqZOF1fJJU3MYrct3AELtAQ-oRw")
    static let receiverPrivate = bytes("q1dXpw3UpT5VOmu_cf_v6ih07Aems3njxI-JWgLcM94")
    static let receiverPublic = bytes(
        "BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4")
    static let salt = bytes("DGv6ra1nlYgDCS1FRnbzlw")
    static let auth = bytes("BTBZMqHH6r4Tts7J_aSIgg")
    static let body = bytes(
        "DGv6ra1nlYgDCS1FRnbzlwAAEABBBP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A_yl95bQpu6cVPTpK4Mqgkf1CXztLVBSt2Ks3oZwbuwXPXLWyouBWLVWGNWQexSgSxsj_Qulcy4a-fN"
    )

    @Test("the RFC's body opens to its plaintext with the user agent's keys")
    func decryptsTheExample() throws {
        let key = try P256.KeyAgreement.PrivateKey(rawRepresentation: Self.receiverPrivate)
        #expect(Array(key.publicKey.x963Representation) == Self.receiverPublic)
        #expect(try WebPushEncryption.decrypt(Self.body, privateKey: key, authSecret: Self.auth).get() == Self.plaintext)
    }

    @Test("encrypting the RFC's plaintext with its salt and sender key gives its body, byte for byte")
    func encryptsTheExample() throws {
        let sender = try P256.KeyAgreement.PrivateKey(rawRepresentation: Self.senderPrivate)
        let body = try WebPushEncryption.encrypt(
            Self.plaintext, receiverKey: Self.receiverPublic, authSecret: Self.auth, salt: Self.salt, senderKey: sender)
        #expect(body == Self.body)
    }

    @Test("a changed byte, the wrong auth secret or the wrong key: it does not open, and says so")
    func refusals() throws {
        let key = try P256.KeyAgreement.PrivateKey(rawRepresentation: Self.receiverPrivate)
        var tampered = Self.body
        tampered[tampered.count - 1] ^= 1
        let failure = WebPushEncryption.decrypt(tampered, privateKey: key, authSecret: Self.auth)
        #expect(throws: WebPushEncryption.Failure.self) { try failure.get() }
        #expect(throws: WebPushEncryption.Failure.self) {
            try WebPushEncryption.decrypt(Self.body, privateKey: key, authSecret: Array(repeating: 0, count: 16)).get()
        }
        #expect(throws: WebPushEncryption.Failure.self) {
            try WebPushEncryption.decrypt(Self.body, privateKey: P256.KeyAgreement.PrivateKey(), authSecret: Self.auth).get()
        }
        #expect(throws: WebPushEncryption.Failure.self) {
            try WebPushEncryption.decrypt(Array(Self.body.prefix(30)), privateKey: key, authSecret: Self.auth).get()
        }
    }

    /// Found by AuthFuzzTests: a body cut right after its header (salt, record size, key id) has
    /// no record at all, and opened to an empty message as if one had been sent.
    @Test("a body that ends after its header holds no message: it does not open")
    func headerOnly() throws {
        let key = try P256.KeyAgreement.PrivateKey(rawRepresentation: Self.receiverPrivate)
        let header = Array(Self.body.prefix(WebPushEncryption.headerSize + 65))
        #expect(throws: WebPushEncryption.Failure("the body ends after its aes128gcm header: it holds no record")) {
            try WebPushEncryption.decrypt(header, privateKey: key, authSecret: Self.auth).get()
        }
    }
}

extension Result {
    var isSuccess: Bool { if case .success = self { true } else { false } }
}

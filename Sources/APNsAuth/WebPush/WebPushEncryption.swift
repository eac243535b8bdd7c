import Crypto
import Foundation

/// Message encryption for Web Push (RFC 8291) in the `aes128gcm` content coding (RFC 8188): what
/// an application server does to a payload with a subscription's `p256dh` and `auth`, and what the
/// browser does to open it with its private key. The emulated browser decrypts each push it is
/// handed with this; tests encrypt with it as a server library would.
public enum WebPushEncryption {
    /// Why a body did not open.
    public struct Failure: Error, Equatable, CustomStringConvertible {
        public var description: String
        public init(_ description: String) { self.description = description }
    }

    /// The `aes128gcm` header: salt (16), record size (4), key id length (1), then the key id,
    /// which for Web Push is the application server's ephemeral public key (65 bytes).
    static let headerSize = 16 + 4 + 1

    /// Opens `body` with the subscription's private key and auth secret; the plaintext, or what
    /// was wrong.
    public static func decrypt(
        _ body: [UInt8], privateKey: P256.KeyAgreement.PrivateKey, authSecret: [UInt8]
    ) -> Result<[UInt8], Failure> {
        guard body.count > Self.headerSize else { return .failure(Failure("the body is shorter than an aes128gcm header")) }
        let salt = Array(body[0..<16])
        let recordSize = body[16..<20].reduce(0) { $0 << 8 | Int($1) }
        let idLength = Int(body[20])
        guard recordSize >= 18, body.count >= Self.headerSize + idLength else {
            return .failure(Failure("the aes128gcm header is malformed (record size \(recordSize), key id of \(idLength) bytes)"))
        }
        let senderKeyBytes = Array(body[Self.headerSize..<Self.headerSize + idLength])
        guard let senderKey = try? P256.KeyAgreement.PublicKey(x963Representation: senderKeyBytes) else {
            return .failure(Failure("the key id is not the application server's P-256 public key (65 bytes, uncompressed)"))
        }
        let receiverKey = Array(privateKey.publicKey.x963Representation)
        guard
            let derived = try? Self.keys(
                privateKey: privateKey, senderKey: senderKey, senderKeyBytes: senderKeyBytes, receiverKey: receiverKey,
                authSecret: authSecret, salt: salt)
        else { return .failure(Failure("the key agreement failed")) }
        let (key, nonce) = derived
        return Self.open(Array(body[(Self.headerSize + idLength)...]), recordSize: recordSize, key: key, nonce: nonce)
    }

    /// Encrypts `plaintext` for a subscription as RFC 8291 describes, in one record, with the
    /// given salt and ephemeral key (random in real use; fixed to reproduce the RFC's example).
    public static func encrypt(
        _ plaintext: [UInt8], receiverKey: [UInt8], authSecret: [UInt8], salt: [UInt8],
        senderKey: P256.KeyAgreement.PrivateKey, recordSize: UInt32 = 4096
    ) throws -> [UInt8] {
        let receiver = try P256.KeyAgreement.PublicKey(x963Representation: receiverKey)
        let sharedSecret = try senderKey.sharedSecretFromKeyAgreement(with: receiver)
        let senderKeyBytes = Array(senderKey.publicKey.x963Representation)
        let (key, nonce) = Self.derive(
            sharedSecret: sharedSecret.withUnsafeBytes { Array($0) }, senderKey: senderKeyBytes, receiverKey: receiverKey,
            authSecret: authSecret, salt: salt)
        let sealed = try AES.GCM.seal(plaintext + [2], using: key, nonce: AES.GCM.Nonce(data: nonce))
        var header = salt
        header += withUnsafeBytes(of: recordSize.bigEndian) { Array($0) }
        header.append(UInt8(senderKeyBytes.count))
        header += senderKeyBytes
        return header + Array(sealed.ciphertext) + Array(sealed.tag)
    }

    private static func keys(
        privateKey: P256.KeyAgreement.PrivateKey, senderKey: P256.KeyAgreement.PublicKey, senderKeyBytes: [UInt8],
        receiverKey: [UInt8], authSecret: [UInt8], salt: [UInt8]
    ) throws -> (SymmetricKey, [UInt8]) {
        let sharedSecret = try privateKey.sharedSecretFromKeyAgreement(with: senderKey)
        return Self.derive(
            sharedSecret: sharedSecret.withUnsafeBytes { Array($0) }, senderKey: senderKeyBytes, receiverKey: receiverKey,
            authSecret: authSecret, salt: salt)
    }

    /// RFC 8291 §3.3 and RFC 8188 §2.2: the input keying material from the ECDH secret and the
    /// auth secret, then the content-encryption key and the nonce from the salt.
    private static func derive(
        sharedSecret: [UInt8], senderKey: [UInt8], receiverKey: [UInt8], authSecret: [UInt8], salt: [UInt8]
    ) -> (SymmetricKey, [UInt8]) {
        let keyInfo = Array("WebPush: info".utf8) + [0] + receiverKey + senderKey
        let prkKey = HKDF<SHA256>.extract(inputKeyMaterial: SymmetricKey(data: sharedSecret), salt: authSecret)
        let ikm = HKDF<SHA256>.expand(pseudoRandomKey: prkKey, info: keyInfo, outputByteCount: 32)
        let prk = HKDF<SHA256>.extract(inputKeyMaterial: ikm, salt: salt)
        let key = HKDF<SHA256>.expand(
            pseudoRandomKey: prk, info: Array("Content-Encoding: aes128gcm".utf8) + [0], outputByteCount: 16)
        let nonce = HKDF<SHA256>.expand(
            pseudoRandomKey: prk, info: Array("Content-Encoding: nonce".utf8) + [0], outputByteCount: 12)
        return (key, nonce.withUnsafeBytes { Array($0) })
    }

    /// RFC 8188 §2: each record is sealed with the nonce XOR its sequence number, and ends (before
    /// zero padding) with a delimiter: 1 for every record but the last, 2 for the last.
    private static func open(_ records: [UInt8], recordSize: Int, key: SymmetricKey, nonce: [UInt8]) -> Result<[UInt8], Failure> {
        // A body must hold at least its last record: a header alone opens to nothing, not to an empty message.
        guard !records.isEmpty else { return .failure(Failure("the body ends after its aes128gcm header: it holds no record")) }
        var plaintext: [UInt8] = []
        var offset = 0
        var sequence: UInt64 = 0
        while offset < records.count {
            let end = min(offset + recordSize, records.count)
            let record = Array(records[offset..<end])
            guard record.count > 16 else { return .failure(Failure("record \(sequence) is shorter than its tag")) }
            var recordNonce = nonce
            for index in 0..<8 { recordNonce[11 - index] ^= UInt8(truncatingIfNeeded: sequence >> (8 * UInt64(index))) }
            guard
                let box = try? AES.GCM.SealedBox(
                    nonce: AES.GCM.Nonce(data: recordNonce), ciphertext: record.dropLast(16), tag: record.suffix(16)),
                let opened = try? AES.GCM.open(box, using: key)
            else {
                return .failure(Failure("record \(sequence) does not open: wrong keys, or the body was changed"))
            }
            var content = Array(opened)
            while content.last == 0 { content.removeLast() }
            let last = end == records.count
            guard let delimiter = content.popLast(), delimiter == (last ? 2 : 1) else {
                return .failure(Failure("record \(sequence) has no \(last ? "last-record (2)" : "record (1)") delimiter"))
            }
            plaintext += content
            offset = end
            sequence += 1
        }
        return .success(plaintext)
    }
}

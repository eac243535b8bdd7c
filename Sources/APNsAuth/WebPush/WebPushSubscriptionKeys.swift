import Crypto

/// What `PushManager.subscribe` makes for a subscription: a P-256 key pair whose public half is
/// `keys.p256dh` and a 16-byte `keys.auth` secret (RFC 8291 §2), each base64url as
/// `PushSubscription.toJSON()` gives them; the private key stays with the browser.
public struct WebPushSubscriptionKeys: Sendable, Equatable {
    public var p256dh: String
    public var auth: String
    /// The private key's raw 32 bytes, base64url.
    public var privateKey: String

    public init(p256dh: String, auth: String, privateKey: String) {
        (self.p256dh, self.auth, self.privateKey) = (p256dh, auth, privateKey)
    }

    /// New random keys.
    public static func generate() -> WebPushSubscriptionKeys {
        let key = P256.KeyAgreement.PrivateKey()
        var generator = SystemRandomNumberGenerator()
        let auth = (0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) }
        return WebPushSubscriptionKeys(
            p256dh: Base64URL.encode(Array(key.publicKey.x963Representation)), auth: Base64URL.encode(auth),
            privateKey: Base64URL.encode(Array(key.rawRepresentation)))
    }

    /// Opens a push body sent to this subscription.
    public func open(_ body: [UInt8]) -> Result<[UInt8], WebPushEncryption.Failure> {
        guard let raw = Base64URL.decode(self.privateKey.utf8),
            let key = try? P256.KeyAgreement.PrivateKey(rawRepresentation: raw),
            let auth = Base64URL.decode(self.auth.utf8)
        else { return .failure(WebPushEncryption.Failure("the subscription's stored keys do not read")) }
        return WebPushEncryption.decrypt(body, privateKey: key, authSecret: auth)
    }

    /// Whether `text` has the form of an uncompressed P-256 public key (65 bytes, 0x04 first) in
    /// base64url, what `applicationServerKey` must be: its bytes when it has. Whether the point
    /// is on the curve is left to the push signed with it (``VAPIDCredential``), as the admin
    /// API's schema can state the form but not the curve.
    public static func publicKey(_ text: String) -> [UInt8]? {
        guard text.utf8.count == 87, let bytes = Base64URL.decode(text.utf8), bytes.count == 65, bytes.first == 4 else {
            return nil
        }
        return bytes
    }
}

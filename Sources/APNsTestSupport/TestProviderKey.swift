import APNsAuth
import APNsCore
import APNsServer
import Crypto
import Foundation
import NIOSSL
import X509

/// A provider-token signing key a test holds, registered with an emulator's key store.
public struct TestProviderKey: Sendable {
    public let keyID: String
    public let teamID: String
    /// The private key as PKCS#8 PEM (the contents of a `.p8` file).
    public let p8: String

    /// A new key, registered in `keysDirectory`.
    public static func register(
        in keysDirectory: String,
        keyID: String,
        teamID: String,
        topics: [String] = [],
        environment: APNsEnvironment? = nil
    ) throws -> TestProviderKey {
        let key = P256.Signing.PrivateKey()
        try ProviderKeyStore.register(
            ProviderKey(keyID: keyID, teamID: teamID, publicKey: key.publicKey, topics: topics, environment: environment),
            in: keysDirectory
        )
        return TestProviderKey(keyID: keyID, teamID: teamID, p8: key.pemRepresentation)
    }

    public init(keyID: String, teamID: String, p8: String) {
        self.keyID = keyID
        self.teamID = teamID
        self.p8 = p8
    }

    /// An `authorization` header value: `bearer <JWT>`, signed with this key. `keyID` and
    /// `teamID` override what goes into the token (to forge tokens the emulator must refuse).
    public func authorization(issuedAt: Int64, keyID: String? = nil, teamID: String? = nil) throws -> String {
        let key = try P256.Signing.PrivateKey(pemRepresentation: self.p8)
        return "bearer "
            + (try ProviderToken.sign(keyID: keyID ?? self.keyID, teamID: teamID ?? self.teamID, issuedAt: issuedAt, with: key))
    }
}

import APNsAuth
import APNsCore
import Crypto
import Foundation

/// A provider-token signing key: what a provider library (APNSwift's `.jwt(privateKey:keyIdentifier:teamIdentifier:)`) takes.
public struct ProviderSigningKey: Sendable {
    /// The key's id (`kid`), ten characters, as Apple issues them.
    public var keyID: String
    /// The team's id (`iss`), ten characters.
    public var teamID: String
    /// The private key as PKCS#8 PEM: the contents of an `AuthKey_<key id>.p8` file.
    public var p8: String

    /// An `authorization` header value (`bearer <JWT>`) signed with this key, issued now.
    public func authorization(issuedAt: Date = Date()) throws -> String {
        let key = try P256.Signing.PrivateKey(pemRepresentation: self.p8)
        return "bearer "
            + (try ProviderToken.sign(
                keyID: self.keyID, teamID: self.teamID, issuedAt: Int64(issuedAt.timeIntervalSince1970), with: key))
    }
}

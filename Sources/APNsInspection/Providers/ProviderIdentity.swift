/// Who sent a request, as far as the emulator can tell providers apart: a provider-token signing
/// key (team and key id), a client certificate (its bundle id), or, with neither, the connection's
/// peer address.
public struct ProviderIdentity: Hashable, Sendable {
    public enum Kind: String, Hashable, Sendable {
        case token, certificate, anonymous
    }

    public var kind: Kind
    public var teamID: String?
    public var keyID: String?
    /// A certificate's subject (its UID, the app's bundle id).
    public var subject: String?
    /// An anonymous provider's address (no port: each connection has its own).
    public var peer: String?

    /// A provider-token key.
    public static func token(teamID: String, keyID: String) -> ProviderIdentity {
        ProviderIdentity(kind: .token, teamID: teamID, keyID: keyID)
    }

    /// A client certificate.
    public static func certificate(subject: String) -> ProviderIdentity {
        ProviderIdentity(kind: .certificate, subject: subject)
    }

    /// Neither: the peer's address.
    public static func anonymous(peer: String) -> ProviderIdentity {
        ProviderIdentity(kind: .anonymous, peer: peer)
    }

    /// The provider's id in the admin API's paths: `token-<team>-<key>`, `certificate-<subject>`,
    /// `anonymous-<address>`, with anything but letters, digits, `.`, `_` and `-` as `_`.
    public var id: String {
        let parts: [String?]
        switch self.kind {
        case .token: parts = [self.teamID, self.keyID]
        case .certificate: parts = [self.subject]
        case .anonymous: parts = [self.peer]
        }
        let text = ([self.kind.rawValue] + parts.map { $0 ?? "" }).joined(separator: "-")
        return String(
            text.unicodeScalars.map { scalar -> Character in
                let ascii = scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar))
                return ascii || ".-_".unicodeScalars.contains(scalar) ? Character(scalar) : "_"
            })
    }
}

/// Who sent a request, as far as the emulator can tell providers apart: a provider-token signing
/// key (team and key id), a client certificate (its bundle id), or, with neither, the connection's
/// peer address.
public struct ProviderIdentity: Hashable, Sendable {
    public enum Kind: String, Hashable, Sendable {
        case token, certificate, anonymous
    }

    public let kind: Kind
    public let teamID: String?
    public let keyID: String?
    /// A certificate's subject (its UID, the app's bundle id).
    public let subject: String?
    /// An anonymous provider's address (no port: each connection has its own).
    public let peer: String?
    /// The provider's id in the admin API's paths: `token-<team>-<key>`, `certificate-<subject>`,
    /// `anonymous-<address>`, with anything but letters, digits, `.`, `_` and `-` as `_`. Made
    /// once: the ledger looks providers up by it for every request.
    public let id: String

    private init(kind: Kind, teamID: String? = nil, keyID: String? = nil, subject: String? = nil, peer: String? = nil) {
        (self.kind, self.teamID, self.keyID, self.subject, self.peer) = (kind, teamID, keyID, subject, peer)
        self.id = Self.id(kind: kind, teamID: teamID, keyID: keyID, subject: subject, peer: peer)
    }

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

    private static func id(kind: Kind, teamID: String?, keyID: String?, subject: String?, peer: String?) -> String {
        let parts: [String?]
        switch kind {
        case .token: parts = [teamID, keyID]
        case .certificate: parts = [subject]
        case .anonymous: parts = [peer]
        }
        let text = ([kind.rawValue] + parts.map { $0 ?? "" }).joined(separator: "-")
        return String(
            text.unicodeScalars.map { scalar -> Character in
                let ascii = scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar))
                return ascii || ".-_".unicodeScalars.contains(scalar) ? Character(scalar) : "_"
            })
    }
}

import APNsCore
import Crypto
import Foundation

/// A JWT provider token as APNs reads it: `{"alg":"ES256","kid":…}.{"iss":…,"iat":…}.signature`.
///
/// Parsing only reads the token; ``ProviderTokenVerifier`` checks the signature against a key.
public struct ProviderToken: Sendable, Equatable {
    /// The `kid` header: which key signed the token.
    public var keyID: String
    /// The `iss` claim: the team the token speaks for.
    public var teamID: String
    /// The `iat` claim, in seconds since the UNIX epoch.
    public var issuedAt: Int64
    /// The bytes the signature covers: the first two base64url parts and the dot between them.
    var signingInput: [UInt8]
    /// The raw `r || s` signature, 64 bytes for ES256.
    var signature: [UInt8]

    /// Reads an `authorization` header value. `.missingProviderToken` when it is absent or not a
    /// bearer token, `.invalidProviderToken` when it is not a well-formed ES256 JWT.
    public static func parse(authorization: String?) -> Result<ProviderToken, Reason> {
        guard let authorization, authorization.utf8.count > 7,
            authorization.utf8.prefix(7).elementsEqual("bearer ".utf8, by: { $0 | 0x20 == $1 | 0x20 })
        else { return .failure(.missingProviderToken) }
        let jwt = authorization.utf8.dropFirst(7).drop { $0 == 0x20 }
        let parts = jwt.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard parts.count == 3,
            let header = Self.object(parts[0]), let claims = Self.object(parts[1]),
            let signature = Base64URL.decode(parts[2]),
            header["alg"]?.string == "ES256",
            let keyID = header["kid"]?.string, !keyID.isEmpty,
            let teamID = claims["iss"]?.string, !teamID.isEmpty,
            let issuedAt = Self.seconds(claims["iat"])
        else { return .failure(.invalidProviderToken) }
        let signingInput = Array(jwt[jwt.startIndex..<parts[1].endIndex])
        return .success(
            ProviderToken(keyID: keyID, teamID: teamID, issuedAt: issuedAt, signingInput: signingInput, signature: signature))
    }

    /// The `iat` claim: a JSON number, or a string of digits, which APNs takes too (a widely used
    /// Python library has always sent it so).
    private static func seconds(_ claim: JSONValue?) -> Int64? {
        switch claim {
        case .string(let text)?:
            guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
            return Int64(text)
        case .number(let number)?:
            return Int64(exactly: number.rounded(.down))
        default:
            return nil
        }
    }

    /// A JOSE header or claims set: a JSON object; nil for anything else.
    private static func object(_ part: Substring.UTF8View.SubSequence) -> JSONValue? {
        guard let bytes = Base64URL.decode(part), let value = JSONValue.parse(bytes), case .object = value else { return nil }
        return value
    }

    /// Signs a new token, as a provider's JWT library does: the `authorization` value is
    /// `"bearer " + token`.
    public static func sign(keyID: String, teamID: String, issuedAt: Int64, with key: P256.Signing.PrivateKey) throws -> String {
        let header = Base64URL.encode(Array(#"{"alg":"ES256","kid":"\#(keyID)"}"#.utf8))
        let claims = Base64URL.encode(Array(#"{"iss":"\#(teamID)","iat":\#(issuedAt)}"#.utf8))
        let input = header + "." + claims
        let signature = try key.signature(for: Array(input.utf8))
        return input + "." + Base64URL.encode(Array(signature.rawRepresentation))
    }
}

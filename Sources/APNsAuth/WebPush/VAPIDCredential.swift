import APNsCore
import Crypto
import Foundation

/// A Web Push request's `Authorization: vapid t=<JWT>, k=<public key>` (RFC 8292 §3), read and
/// checked as Apple's push service checks it.
///
/// Apple, "Sending web push notifications in web apps and browsers": 403 `BadJwtToken` when "the
/// JWT is missing; the JWT is signed with the wrong private key; the JWT subject claim isn't a URL
/// or mailto:; the JWT audience claim isn't the origin of the push service where you sent the
/// request; the JWT expiration parameter is more than one day into the future". What real servers
/// hit, on record: `mailto: <address>` with a space or angle brackets (Apple Developer Forums
/// thread 725473), a `localhost` contact (`mailto:…@localhost`, web-push-libs/web-push #947;
/// `https://localhost`, web-push #787).
public struct VAPIDCredential: Sendable, Equatable {
    /// `k`: the application server's public key, uncompressed P-256 (65 bytes).
    public var publicKey: [UInt8]
    public var audience: String
    public var subject: String
    /// `exp`, UNIX seconds.
    public var expiresAt: Int64
    /// An `apns-emulator-warning` for an audience taken though it is not exactly the origin.
    public var warning: String?

    /// The longest a JWT may still be valid for, from now (Apple: one day).
    public static let longestLife: Int64 = 86_400

    /// Reads and checks `authorization` for a push to a subscription made with
    /// `applicationServerKey`, sent to the push service at `origin`.
    public static func check(
        authorization: String?, origin: String, applicationServerKey: [UInt8], nowSeconds: Int64
    ) -> Result<VAPIDCredential, WebPushRefusal> {
        guard let authorization, !authorization.isEmpty else {
            return .failure(
                .badJwtToken("the JWT is missing: Apple's push service needs Authorization: vapid t=<JWT>, k=<public key>"))
        }
        guard authorization.lowercased().hasPrefix("vapid ") else {
            let scheme = authorization.split(separator: " ").first.map(String.init) ?? authorization
            return .failure(
                .badJwtToken(
                    "the Authorization scheme is \(scheme.prefix(20)); Web Push to Apple uses vapid t=<JWT>, k=<public key> (RFC 8292)"
                ))
        }
        let parameters = Self.parameters(authorization.dropFirst(6))
        guard let jwt = parameters["t"], let key = parameters["k"] else {
            return .failure(.badJwtToken("the vapid Authorization needs both t (the JWT) and k (the public key)"))
        }
        guard let publicKey = Base64URL.decode(key.utf8), publicKey.count == 65, publicKey.first == 4,
            let verifying = try? P256.Signing.PublicKey(x963Representation: publicKey)
        else { return .failure(.badJwtToken("k is not a P-256 public key (65 bytes, uncompressed, base64url)")) }
        guard publicKey == applicationServerKey else {
            return .failure(
                .badJwtToken(
                    "the JWT is signed with the wrong private key: k is not the applicationServerKey this subscription was made with"
                ))
        }
        return Self.claims(jwt, key: verifying).flatMap { claims in
            Self.checked(claims, publicKey: publicKey, origin: origin, nowSeconds: nowSeconds)
        }
    }

    /// The warning for an audience that is the push service's scheme and host without the port it
    /// listens on (not 443), as libraries that build `aud` from the endpoint's scheme and host
    /// send: right against Apple, whose endpoints have no port; nil for any other audience.
    static func portlessAudience(_ audience: String, origin: String) -> String? {
        guard let colon = origin.lastIndex(of: ":"), origin[..<colon].contains("://"),
            let port = Int(origin[origin.index(after: colon)...]), port != 443, audience == String(origin[..<colon])
        else { return nil }
        return
            "vapid-audience-without-port: the JWT audience is \(audience), the push service's scheme and host without its port \(port); taken, as Apple's endpoints (https://web.push.apple.com) have no port, so this library's audience is right there, but RFC 8292 asks for the origin, \(origin), and other push services check it"
    }

    /// `t=…, k=…`: comma-separated, spaces around allowed.
    private static func parameters(_ text: Substring) -> [String: String] {
        var found: [String: String] = [:]
        for part in text.split(separator: ",") {
            let pieces = part.split(separator: "=", maxSplits: 1)
            guard pieces.count == 2 else { continue }
            found[pieces[0].trimmingCharacters(in: .whitespaces).lowercased()] = pieces[1].trimmingCharacters(in: .whitespaces)
        }
        return found
    }

    /// The JWT's claims, once its header says ES256 and its signature verifies with `key`.
    private static func claims(_ jwt: String, key: P256.Signing.PublicKey) -> Result<[String: JSONValue], WebPushRefusal> {
        let parts = jwt.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let headerBytes = Base64URL.decode(parts[0].utf8),
            let claimsBytes = Base64URL.decode(parts[1].utf8),
            case .object(let header)? = JSONValue.parse(headerBytes), case .object(let claims)? = JSONValue.parse(claimsBytes),
            let signatureBytes = Base64URL.decode(parts[2].utf8)
        else { return .failure(.badJwtToken("t is not a JWT (three base64url parts, a JSON header and claims)")) }
        guard header["alg"]?.string == "ES256" else {
            return .failure(.badJwtToken("the JWT's alg is \(header["alg"]?.string ?? "missing"); VAPID signs with ES256"))
        }
        let input = Array(jwt.utf8.prefix(parts[0].utf8.count + 1 + parts[1].utf8.count))
        guard let signature = try? P256.Signing.ECDSASignature(rawRepresentation: signatureBytes),
            key.isValidSignature(signature, for: input)
        else {
            return .failure(.badJwtToken("the JWT is signed with the wrong private key: its signature does not verify with k"))
        }
        return .success(claims)
    }

    private static func checked(
        _ claims: [String: JSONValue], publicKey: [UInt8], origin: String, nowSeconds: Int64
    ) -> Result<VAPIDCredential, WebPushRefusal> {
        let audience = claims["aud"]?.string
        let warning = audience.flatMap { Self.portlessAudience($0, origin: origin) }
        guard let audience, audience == origin || warning != nil else {
            return .failure(
                .badJwtToken(
                    "the JWT audience claim is \(claims["aud"]?.string ?? "missing"); it must be the push service's origin, \(origin)"
                ))
        }
        guard let exp = claims["exp"]?.number, let expiresAt = Int64(exactly: exp.rounded(.down)) else {
            return .failure(.badJwtToken("the JWT has no exp (UNIX seconds)"))
        }
        guard expiresAt > nowSeconds else {
            return .failure(.badJwtToken("the JWT expired \(nowSeconds - expiresAt) s ago (exp \(expiresAt))"))
        }
        guard expiresAt <= nowSeconds + Self.longestLife else {
            return .failure(
                .badJwtToken(
                    "the JWT expiration is more than one day into the future (exp \(expiresAt), \(expiresAt - nowSeconds) s from now)"
                ))
        }
        guard let subject = claims["sub"]?.string else {
            return .failure(.badJwtToken("the JWT has no subject claim (sub): a mailto: address or an https: URL"))
        }
        if let problem = Self.problem(subject: subject) { return .failure(.badJwtToken(problem)) }
        return .success(
            VAPIDCredential(publicKey: publicKey, audience: audience, subject: subject, expiresAt: expiresAt, warning: warning))
    }

    /// What is wrong with a `sub`, if anything: it must be `mailto:` an address (no spaces, no
    /// angle brackets) or an `https:` URL, and not at `localhost`.
    static func problem(subject: String) -> String? {
        let lowered = subject.lowercased()
        if lowered.hasPrefix("mailto:") {
            let address = subject.dropFirst(7)
            if address.contains(where: { $0 == " " || $0 == "<" || $0 == ">" }) {
                return
                    "the JWT subject \(subject.prefix(80)) has a space or angle brackets after mailto:; write mailto:name@example.com"
            }
            guard let at = address.lastIndex(of: "@"), address.index(after: at) < address.endIndex else {
                return "the JWT subject \(subject.prefix(80)) is not mailto: an email address"
            }
            let domain = address[address.index(after: at)...].lowercased()
            if domain == "localhost" || domain.hasSuffix(".localhost") {
                return
                    "the JWT subject \(subject.prefix(80)) is at localhost, which Apple refuses: give a contact address people can reach"
            }
            return nil
        }
        if lowered.hasPrefix("https://") {
            let host = lowered.dropFirst(8).prefix { $0 != "/" && $0 != ":" && $0 != "?" }
            if host.isEmpty { return "the JWT subject \(subject.prefix(80)) is not an https: URL with a host" }
            if host == "localhost" || host.hasSuffix(".localhost") {
                return
                    "the JWT subject \(subject.prefix(80)) is https://localhost, which Apple refuses: give your site's URL or a mailto: address"
            }
            return nil
        }
        return
            "the JWT subject claim \(subject.prefix(80)) isn't a URL or mailto: (give mailto:name@example.com or https://example.com)"
    }
}

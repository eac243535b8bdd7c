import APNsCore
import Crypto
import Foundation
import NIOHTTP1

/// The admin token: how a request shows it (`Authorization: Bearer`, or the login page's
/// cookie), compared in constant time, and made when none is given.
extension AdminAccess {
    /// nil when the request may pass: no token is asked for, the path is public, or it carries
    /// the token. A page (`GET /`) without it is sent to the login page; anything else is 401.
    func checkToken(method: String, uri: String, path: String, headers: HTTPHeaders) -> AdminRouter.Response? {
        guard let digest = self.tokenDigest, !Self.isPublic(path) else { return nil }
        let bearer = headers["authorization"].lazy.compactMap(Self.bearer).first
        if let bearer {
            if Self.same(Array(SHA256.hash(data: Array(bearer.utf8))), digest) { return nil }
            return Self.unauthorized(
                "the bearer token does not match this emulator's admin token (--admin-token, or the one serve printed at start and wrote to its ports file)",
                error: "invalid_token")
        }
        if let cookie = Self.cookie(Self.cookieName, in: headers), let expected = self.cookieValue,
            Self.same(Array(cookie.utf8), Array(expected.utf8))
        {
            return nil
        }
        if method == "GET" && path == "/" {
            var response = AdminRouter.Response(status: 303, body: [])
            response.headers = ["location": AdminLogin.path + "?next=" + AdminLogin.encoded(uri)]
            return response
        }
        return Self.unauthorized(
            "this emulator's admin API needs its admin token: send Authorization: Bearer <token>. It is the --admin-token it was started with, or the one serve made, printed at start and wrote to its ports file (adminToken); the web inbox asks for it at /login",
            error: nil)
    }

    /// Whether a device's hello may go on: no token is asked for, or it brings the token.
    func admitsDevice(_ credential: String?) -> Bool {
        guard let digest = self.tokenDigest else { return true }
        guard let credential else { return false }
        return Self.same(Array(SHA256.hash(data: Array(credential.utf8))), digest)
    }

    /// The login page's cookie value: a digest of the token, so the cookie never holds the token.
    var cookieValue: String? {
        self.token.map { token in
            SHA256.hash(data: Array(("apns-emulator admin cookie\n" + token).utf8)).map { String(format: "%02x", $0) }.joined()
        }
    }

    static func unauthorized(_ message: String, error: String?) -> AdminRouter.Response {
        var response = AdminError(.unauthorized, message).response
        response.headers = [
            "www-authenticate": #"Bearer realm="apns-emulator admin API""# + (error.map { #", error="\#($0)""# } ?? "")
        ]
        return response
    }

    /// `Bearer <token>`'s token (the scheme in any case).
    static func bearer(_ header: String) -> String? {
        let parts = header.trimmingCharacters(in: .whitespaces).split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
        return parts[1].trimmingCharacters(in: .whitespaces)
    }

    /// A cookie's value from every `Cookie` header.
    static func cookie(_ name: String, in headers: HTTPHeaders) -> String? {
        for header in headers["cookie"] {
            for pair in header.split(separator: ";") {
                let parts = pair.split(separator: "=", maxSplits: 1)
                if parts.count == 2, parts[0].trimmingCharacters(in: .whitespaces) == name {
                    return parts[1].trimmingCharacters(in: .whitespaces)
                }
            }
        }
        return nil
    }

    /// Whether two byte strings are equal, in time that depends on their lengths alone.
    static func same(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for index in a.indices { difference |= a[index] ^ b[index] }
        return difference == 0
    }

    /// A new token: 32 random bytes from the system's secure generator, base64url.
    public static func makeToken() -> String {
        var generator = SystemRandomNumberGenerator()
        while true {
            let bytes = (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
            let token = Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-")
                .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
            // Never a leading dash: `--admin-token -x…` on a command line reads as a flag.
            if !token.hasPrefix("-") { return token }
        }
    }

    /// Whether a listener bound to `host` is reachable only from this machine.
    public static func isLoopback(_ host: String) -> Bool {
        let name = host.lowercased()
        return name == "localhost" || name == "::1" || name == "[::1]" || name.hasPrefix("127.")
    }
}

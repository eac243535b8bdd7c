import APNsCore
import Crypto
import Foundation
import NIOHTTP1

/// Who may use the admin API and the web inbox: the checks every request passes before a route
/// sees it. A browser's request from another site is refused (its `Origin` or `Sec-Fetch-Site`
/// says so), a `Host` that is not one of this emulator's names is refused (DNS rebinding), and
/// with a token only a request that carries it is admitted. Requests that carry neither `Origin`
/// nor `Sec-Fetch-Site` (curl, the CLI, the fixtures) are not a browser's and pass the first check.
public struct AdminAccess: Sendable {
    /// The token every request must carry (`--admin-token`); nil admits without one.
    public var token: String? {
        didSet { self.tokenDigest = self.token.map { Array(SHA256.hash(data: Array($0.utf8))) } }
    }
    /// Origins (`scheme://host[:port]`, lower case) whose pages may call the API, with the CORS
    /// they need (`--admin-allowed-origins`).
    public var allowedOrigins: [String]
    /// Host names admitted besides IP addresses and localhost (`--admin-allowed-hosts`):
    /// `example.test`, `.example.test` for it and every name under it, `*` for any.
    public var allowedHosts: [String]
    private(set) var tokenDigest: [UInt8]?

    /// The name of the cookie the login page sets: a digest of the token, never the token itself.
    static let cookieName = "apns-emulator-admin"

    public init(token: String? = nil, allowedOrigins: [String] = [], allowedHosts: [String] = []) {
        self.allowedOrigins = allowedOrigins.map { Self.normalizedOrigin($0) }
        self.allowedHosts = allowedHosts.map { $0.lowercased() }
        self.token = token
        self.tokenDigest = token.map { Array(SHA256.hash(data: Array($0.utf8))) }
    }

    /// What to do with one request.
    enum Verdict: Equatable {
        /// On to the routes; `origin`: an allowed foreign origin, whose page gets CORS headers.
        case admit(origin: String?)
        /// This answer, not the route's.
        case answer(AdminRouter.Response)
    }

    /// The request's fate, from its method, path and headers alone.
    func check(method: String, uri: String, headers: HTTPHeaders) -> Verdict {
        let path = uri.split(separator: "?", maxSplits: 1).first.map(String.init) ?? uri
        if let refusal = self.checkHost(headers.first(name: "host")) { return .answer(refusal) }
        let origin = headers.first(name: "origin").map { Self.normalizedOrigin($0) }
        let allowed = origin.map { self.allowedOrigins.contains($0) } ?? false
        if method == "OPTIONS", let origin {
            return .answer(allowed ? Self.preflight(origin) : self.crossSite(origin: origin, fetchSite: nil))
        }
        let foreign = origin.map { !Self.isSameOrigin($0, host: headers.first(name: "host")) } ?? false
        let fetchSite = headers.first(name: "sec-fetch-site")?.lowercased()
        let crossSite = !allowed && (foreign || fetchSite == "cross-site")
        if crossSite && (!["GET", "HEAD"].contains(method) || Self.readsEverything(path)) {
            return .answer(self.crossSite(origin: origin, fetchSite: fetchSite))
        }
        if let refusal = self.checkToken(method: method, uri: uri, path: path, headers: headers) { return .answer(refusal) }
        return .admit(origin: allowed ? origin : nil)
    }

    /// Paths whose GET hands out everything at once: the event stream (every payload as it comes).
    static func readsEverything(_ path: String) -> Bool {
        path == "/api/v1/events" || path == "/api/v1/export"
    }

    /// What needs no token: probes, the CA certificate clients must trust, the API's description,
    /// and the login page with its style.
    static func isPublic(_ path: String) -> Bool {
        ["/healthz", "/readyz", "/ca.pem", "/openapi.json", AdminLogin.path].contains(path) || path.hasPrefix("/inbox/")
    }

    // MARK: Host

    /// nil when `host` names this emulator: an IP address (a page cannot rebind a name to one it
    /// already is), `localhost` or a name under it, or an allowed name; no `Host` at all is not a
    /// browser (HTTP/1.0 probes).
    func checkHost(_ host: String?) -> AdminRouter.Response? {
        guard let host else { return nil }
        let name = Self.hostName(host)
        if Self.isAddress(name) || name == "localhost" || name.hasSuffix(".localhost") { return nil }
        for allowed in self.allowedHosts {
            if allowed == "*" || allowed == name || (allowed.hasPrefix(".") && (name.hasSuffix(allowed) || "." + name == allowed))
            {
                return nil
            }
        }
        return AdminError(
            .forbidden,
            "Host \(host) is not a name of this emulator (DNS rebinding guard): the admin API answers its IP addresses and localhost; to reach it by this name, start it with --admin-allowed-hosts \(name)"
        ).response
    }

    /// `Host`'s name, lower case, without its port or an IPv6 literal's brackets.
    static func hostName(_ host: String) -> String {
        let lower = host.lowercased()
        if lower.hasPrefix("["), let close = lower.firstIndex(of: "]") {
            return String(lower[lower.index(after: lower.startIndex)..<close])
        }
        if lower.filter({ $0 == ":" }).count == 1, let colon = lower.firstIndex(of: ":") { return String(lower[..<colon]) }
        return lower
    }

    /// An IPv4 dotted quad or an IPv6 literal.
    static func isAddress(_ name: String) -> Bool {
        if name.contains(":") { return name.allSatisfy { $0.isHexDigit || $0 == ":" || $0 == "." || $0 == "%" } }
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts.allSatisfy { part in UInt8(part) != nil && part.allSatisfy(\.isASCII) }
    }

    // MARK: Origin

    /// `Origin` in lower case without a trailing slash (`null` stays `null`).
    static func normalizedOrigin(_ origin: String) -> String {
        var text = origin.trimmingCharacters(in: .whitespaces).lowercased()
        while text.hasSuffix("/") { text.removeLast() }
        return text
    }

    /// Whether a page at `origin` is this API's own: its authority is the request's `Host`.
    static func isSameOrigin(_ origin: String, host: String?) -> Bool {
        guard let host = host?.lowercased() else { return false }
        return origin == "http://" + host || origin == "https://" + host
    }

    func crossSite(origin: String?, fetchSite: String?) -> AdminRouter.Response {
        let from = origin.map { "a page at \($0)" } ?? "a page of another site (Sec-Fetch-Site: \(fetchSite ?? "cross-site"))"
        let admit = origin.map { " To let that page use it, start the emulator with --admin-allowed-origins \($0)." } ?? ""
        return AdminError(
            .forbidden,
            "cross-site request refused: \(from) may not drive this emulator's admin API (it could reset, push or read everything).\(admit)"
        ).response
    }

    /// The answer to an allowed origin's CORS preflight.
    static func preflight(_ origin: String) -> AdminRouter.Response {
        var response = AdminRouter.Response(status: 204, body: [])
        response.headers = Self.corsHeaders(origin).merging([
            "access-control-allow-methods": "GET, POST, PUT, DELETE",
            "access-control-allow-headers": "authorization, content-type",
            "access-control-max-age": "600",
        ]) { $1 }
        return response
    }

    /// What an allowed origin's page needs on every answer to read it.
    static func corsHeaders(_ origin: String) -> [String: String] {
        ["access-control-allow-origin": origin, "vary": "Origin", "access-control-expose-headers": "apns-emulator-shards"]
    }
}

import NIOHTTP1
import Testing

@testable import APNsServer

/// The admin API's door checks as pure decisions: Origin, Sec-Fetch-Site, Host, token.
/// Sources: the Fetch standard's `Sec-Fetch-Site` and CORS "simple" requests (a text/plain POST
/// needs no preflight, so only the server can refuse it); Vite's and webpack-dev-server's host
/// checks (CVE-2025-24010, CVE-2025-30359) for the DNS rebinding guard.
@Suite("Admin access: which requests the admin API admits")
struct AdminAccessCheckTests {
    static func headers(_ pairs: [(String, String)]) -> HTTPHeaders { HTTPHeaders(pairs) }

    func status(_ access: AdminAccess, _ method: String, _ uri: String, _ pairs: [(String, String)]) -> Int {
        switch access.check(method: method, uri: uri, headers: Self.headers(pairs)) {
        case .admit: 200
        case .answer(let response): response.status
        }
    }

    @Test("a browser's request from another site is refused for every method but GET and HEAD, and for the event stream")
    func crossSite() {
        let access = AdminAccess()
        let host = ("host", "127.0.0.1:8197")
        #expect(self.status(access, "POST", "/api/v1/reset", [host, ("origin", "https://evil.example")]) == 403)
        #expect(self.status(access, "DELETE", "/api/v1/faults", [host, ("origin", "null")]) == 403)
        #expect(self.status(access, "PUT", "/api/v1/devices/ab/app", [host, ("sec-fetch-site", "cross-site")]) == 403)
        #expect(self.status(access, "GET", "/api/v1/events", [host, ("origin", "https://evil.example")]) == 403)
        // Reads without side effects: the browser keeps the answer from the page (no CORS headers).
        #expect(self.status(access, "GET", "/api/v1/devices", [host, ("origin", "https://evil.example")]) == 200)
        // The inbox's own page, and tools that are not browsers.
        #expect(self.status(access, "POST", "/api/v1/reset", [host, ("origin", "http://127.0.0.1:8197")]) == 200)
        #expect(self.status(access, "POST", "/api/v1/reset", [host, ("sec-fetch-site", "same-origin")]) == 200)
        #expect(self.status(access, "POST", "/api/v1/reset", [host]) == 200)
        // Another port of the same host is another origin (same-site, but not this page).
        #expect(self.status(access, "POST", "/api/v1/reset", [host, ("origin", "http://127.0.0.1:3000")]) == 403)
    }

    @Test("an allowed origin gets its preflight and CORS headers; others get a 403 naming the flag")
    func allowedOrigins() throws {
        let access = AdminAccess(allowedOrigins: ["https://Dash.Example.test:8443/"])
        let origin = ("origin", "https://dash.example.test:8443")
        guard case .answer(let preflight) = access.check(method: "OPTIONS", uri: "/api/v1/reset", headers: Self.headers([origin]))
        else { Issue.record("no preflight answer"); return }
        #expect(preflight.status == 204)
        #expect(preflight.headers["access-control-allow-origin"] == "https://dash.example.test:8443")
        #expect(preflight.headers["access-control-allow-headers"] == "authorization, content-type")
        #expect(access.check(method: "POST", uri: "/api/v1/reset", headers: Self.headers([origin, ("sec-fetch-site", "cross-site")]))
            == .admit(origin: "https://dash.example.test:8443"))
        guard case .answer(let refused) = access.check(
            method: "OPTIONS", uri: "/api/v1/reset", headers: Self.headers([("origin", "https://evil.example")]))
        else { Issue.record("a foreign preflight was admitted"); return }
        #expect(refused.status == 403)
        #expect(String(decoding: refused.body, as: UTF8.self).contains("--admin-allowed-origins https://evil.example"))
    }

    @Test("Host: IP addresses, localhost and allowed names pass; any other name is refused (DNS rebinding)")
    func hosts() {
        let access = AdminAccess(allowedHosts: ["emulator.test", ".team.test"])
        for host in ["127.0.0.1:8197", "localhost:8197", "LOCALHOST", "[::1]:8197", "10.1.2.3:8197", "app.localhost:1", "emulator.test:8197",
            "ci.team.test", "team.test:80"]
        {
            #expect(self.status(access, "GET", "/api/v1/devices", [("host", host)]) == 200, "\(host)")
        }
        for host in ["evil.example:8197", "127.0.0.1.evil.example", "emulator.test.evil", "localhost.evil.example"] {
            #expect(self.status(access, "GET", "/api/v1/devices", [("host", host)]) == 403, "\(host)")
            #expect(self.status(access, "GET", "/", [("host", host)]) == 403, "\(host)")
        }
        #expect(self.status(AdminAccess(allowedHosts: ["*"]), "GET", "/", [("host", "anything.example")]) == 200)
    }

    @Test("a token: missing or wrong is 401 (wrong says invalid_token), right passes; the page goes to /login; probes and the CA need none")
    func token() throws {
        let access = AdminAccess(token: "s3cret-token-value")
        let host = ("host", "localhost:8197")
        #expect(self.status(access, "GET", "/api/v1/devices", [host]) == 401)
        #expect(self.status(access, "GET", "/api/v1/devices", [host, ("authorization", "Bearer s3cret-token-value")]) == 200)
        #expect(self.status(access, "GET", "/api/v1/devices", [host, ("authorization", "bearer s3cret-token-value")]) == 200)
        guard case .answer(let wrong) = access.check(
            method: "GET", uri: "/metrics", headers: Self.headers([host, ("authorization", "Bearer s3cret-token-valuf")]))
        else { Issue.record("a wrong token passed"); return }
        #expect(wrong.status == 401)
        #expect(wrong.headers["www-authenticate"]?.contains(#"error="invalid_token""#) == true)
        guard case .answer(let page) = access.check(method: "GET", uri: "/?status=rejected", headers: Self.headers([host])) else {
            Issue.record("the page was served without a token"); return
        }
        #expect(page.status == 303 && page.headers["location"] == "/login?next=/%3Fstatus%3Drejected")
        for path in ["/healthz", "/readyz", "/ca.pem", "/openapi.json", "/login", "/inbox/inbox.css"] {
            #expect(self.status(access, "GET", path, [host]) == 200, "\(path)")
        }
        let cookie = try #require(access.cookieValue)
        #expect(!cookie.contains("s3cret"))
        #expect(self.status(access, "GET", "/api/v1/events", [host, ("cookie", "a=b; apns-emulator-admin=\(cookie)")]) == 200)
        #expect(self.status(access, "GET", "/api/v1/events", [host, ("cookie", "apns-emulator-admin=s3cret-token-value")]) == 401)
        // Without a token, a bearer header is not checked at all.
        #expect(self.status(AdminAccess(), "GET", "/api/v1/devices", [host, ("authorization", "Bearer anything")]) == 200)
    }

    @Test("comparison: equal only when equal, the loop runs over every byte; made tokens are 256 random bits")
    func comparisonAndMaking() {
        #expect(AdminAccess.same(Array("abc".utf8), Array("abc".utf8)))
        #expect(!AdminAccess.same(Array("abc".utf8), Array("abd".utf8)))
        #expect(!AdminAccess.same(Array("abc".utf8), Array("abcd".utf8)))
        let made = (0..<20).map { _ in AdminAccess.makeToken() }
        #expect(Set(made).count == 20 && made.allSatisfy { $0.count == 43 })
        #expect(AdminAccess.isLoopback("127.0.0.1") && AdminAccess.isLoopback("::1") && AdminAccess.isLoopback("localhost"))
        #expect(!AdminAccess.isLoopback("0.0.0.0") && !AdminAccess.isLoopback("::") && !AdminAccess.isLoopback("192.168.1.4"))
    }

    @Test("login: the right token sets an HttpOnly SameSite=Strict cookie and goes back; a wrong one shows the form again; next stays on this site")
    func login() {
        let access = AdminAccess(token: "s3cret-token-value")
        let good = AdminLogin.respond(
            method: "POST", uri: "/login", body: Array("token=s3cret-token-value&next=%2F%3Fview%3Dphone".utf8), access: access)
        #expect(good.status == 303 && good.headers["location"] == "/?view=phone")
        #expect(good.headers["set-cookie"] == "apns-emulator-admin=\(access.cookieValue ?? ""); Path=/; HttpOnly; SameSite=Strict")
        let bad = AdminLogin.respond(method: "POST", uri: "/login", body: Array("token=nope".utf8), access: access)
        #expect(bad.status == 401 && bad.headers["set-cookie"] == nil)
        #expect(String(decoding: bad.body, as: UTF8.self).contains("not this emulator&#39;s admin token"))
        for next in ["//evil.example/", "https://evil.example/", "/\\evil.example", "evil"] {
            #expect(AdminLogin.safeNext(next) == "/", "\(next)")
        }
    }
}

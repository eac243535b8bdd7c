import APNsCore
import APNsDeviceClient
import APNsTestSupport
import Foundation
import Testing

/// Issue 51, over real sockets: the admin API refuses what a web page of another site, a rebound
/// host name or a caller without the token sends, and admits the inbox's own page, the tools and
/// the fixtures. Sources: the Fetch standard (CORS "simple" requests are sent without a
/// preflight; `Sec-Fetch-Site`), RFC 6750 (`WWW-Authenticate: Bearer`, `invalid_token`),
/// RFC 6265bis (SameSite=Strict), and the rebinding fixes of Vite (CVE-2025-24010) and
/// webpack-dev-server (CVE-2025-30359).
@Suite("Admin API: lets no one in who does not belong")
struct AdminLockTests {
    static let topic = "com.example.lock"

    func register(_ emulator: RunningEmulator) async throws -> String {
        let device = try await emulator.adminObject("/api/v1/devices", method: "POST", body: #"{"topic": "\#(Self.topic)"}"#, status: 201)
        return try #require(device["token"] as? String)
    }

    func devices(_ emulator: RunningEmulator) async throws -> Int {
        let answer = try await emulator.admin("/api/v1/devices")
        return (try answer.json() as? [Any])?.count ?? -1
    }

    @Test("a cross-site simple POST (text/plain, no preflight) is refused with 403 and changes nothing; so is Sec-Fetch-Site: cross-site and a foreign page's event stream")
    func crossSite() async throws {
        try await withEmulator { emulator in
            _ = try await self.register(emulator)
            let evil = [(name: "origin", value: "https://evil.example"), (name: "content-type", value: "text/plain")]
            let reset = try await emulator.admin("/api/v1/reset?devices", method: "POST", body: #"{"devices":true}"#, headers: evil)
            #expect(reset.status == 403, "\(reset.text)")
            #expect(reset.text.contains("cross-site request refused") && reset.text.contains("--admin-allowed-origins https://evil.example"))
            #expect(reset.header("access-control-allow-origin") == nil)
            let fault = try await emulator.admin(
                "/api/v1/faults", method: "POST", body: #"{"action":{"type":"respond","reason":"Shutdown"}}"#,
                headers: [(name: "sec-fetch-site", value: "cross-site")])
            #expect(fault.status == 403, "\(fault.text)")
            let events = try await emulator.admin("/api/v1/events", headers: [(name: "origin", value: "http://localhost:3000")])
            #expect(events.status == 403, "\(events.text)")
            #expect(try await self.devices(emulator) == 1, "nothing was reset")
            #expect(try await emulator.admin("/api/v1/faults").text == "[]", "no fault rule was added")
            // The inbox's own page, and every tool that is not a browser.
            let own = [(name: "origin", value: "http://127.0.0.1:\(emulator.adminPort)"), (name: "sec-fetch-site", value: "same-origin")]
            #expect(try await emulator.admin("/api/v1/clock", headers: own).status == 200)
            #expect(try await emulator.admin("/api/v1/reset?devices", method: "POST", headers: own).status == 200)
            #expect(try await self.devices(emulator) == 0)
        }
    }

    @Test("a rebound Host is refused on the API, the inbox and the event stream, naming --admin-allowed-hosts; localhost and IP literals pass")
    func rebinding() async throws {
        try await withEmulator(configure: { $0.adminAllowedHosts = ["emulator.test"] }) { emulator in
            let port = emulator.adminPort
            for path in ["/api/v1/devices", "/", "/api/v1/events", "/metrics"] {
                let answer = try await emulator.admin(path, headers: [(name: "host", value: "evil.example:\(port)")])
                #expect(answer.status == 403, "\(path): \(answer.text)")
                #expect(answer.text.contains("--admin-allowed-hosts evil.example"), "\(answer.text)")
            }
            for host in ["localhost:\(port)", "127.0.0.1:\(port)", "emulator.test:\(port)"] {
                #expect(try await emulator.admin("/api/v1/devices", headers: [(name: "host", value: host)]).status == 200, "\(host)")
            }
        }
    }

    @Test("an allowed origin gets its preflight and exactly the CORS it needs, on answers and the event stream; none by default")
    func allowedOrigin() async throws {
        try await withEmulator(configure: { $0.adminAllowedOrigins = ["https://dash.example.test"] }) { emulator in
            let origin = [(name: "origin", value: "https://dash.example.test")]
            let preflight = try await emulator.admin(
                "/api/v1/reset", method: "OPTIONS", headers: origin + [(name: "access-control-request-method", value: "POST")])
            #expect(preflight.status == 204)
            #expect(preflight.header("access-control-allow-origin") == "https://dash.example.test")
            #expect(preflight.header("access-control-allow-methods") == "GET, POST, PUT, DELETE")
            let reset = try await emulator.admin("/api/v1/reset", method: "POST", headers: origin + [(name: "sec-fetch-site", value: "cross-site")])
            #expect(reset.status == 200 && reset.header("access-control-allow-origin") == "https://dash.example.test")
            #expect(reset.header("vary") == "Origin")
            #expect(try await emulator.admin("/api/v1/clock").header("access-control-allow-origin") == nil)
            let stream = try await AdminEventStream.open(host: "127.0.0.1", port: emulator.adminPort, path: "/api/v1/events", headers: origin)
            #expect(stream.contentType == "text/event-stream")
            try await stream.close()
        }
    }

    @Test("with --admin-token: no token or a wrong one is 401 with WWW-Authenticate, the right one or the login cookie passes; providers and devices see nothing new")
    func token() async throws {
        let secret = "correct-horse-battery-staple"
        try await withEmulator(configure: { $0.adminToken = secret }) { emulator in
            let port = emulator.adminPort
            let none = try await AdminTestClient.request(host: "127.0.0.1", port: port, path: "/api/v1/notifications")
            #expect(none.status == 401 && none.header("www-authenticate") == #"Bearer realm="apns-emulator admin API""#)
            #expect(none.text.contains("Authorization: Bearer"))
            let wrong = try await AdminTestClient.request(host: "127.0.0.1", port: port, path: "/api/v1/notifications", token: "correct-horse")
            #expect(wrong.status == 401 && wrong.header("www-authenticate")?.contains("invalid_token") == true)
            let page = try await AdminTestClient.request(host: "127.0.0.1", port: port, path: "/")
            #expect(page.status == 303 && page.header("location") == "/login?next=/")
            for path in ["/healthz", "/readyz", "/ca.pem", "/login"] {
                #expect(try await AdminTestClient.request(host: "127.0.0.1", port: port, path: path).status == 200, "\(path)")
            }

            // A provider pushes as ever, with no admin token; the journal (with it) shows the push.
            let token = try await self.register(emulator)
            let provider = try await emulator.http2Client()
            #expect(try await provider.push(token: token, topic: Self.topic).status == 200)
            try await provider.close()
            #expect(try await emulator.journal("token=\(token)").count == 1)

            // The inbox's login: a form post sets the cookie; the cookie reads the API.
            let login = try await AdminTestClient.request(
                host: "127.0.0.1", port: port, method: "POST", path: "/login", body: "token=\(secret)&next=%2F%3Fstatus%3Daccepted",
                headers: [(name: "content-type", value: "application/x-www-form-urlencoded"), (name: "origin", value: "http://127.0.0.1:\(port)")])
            #expect(login.status == 303 && login.header("location") == "/?status=accepted")
            let cookie = try #require(login.header("set-cookie")?.split(separator: ";").first.map(String.init))
            #expect(login.header("set-cookie")?.contains("HttpOnly; SameSite=Strict") == true)
            #expect(!cookie.contains(secret), "the cookie holds a digest, not the token")
            let read = try await AdminTestClient.request(
                host: "127.0.0.1", port: port, path: "/api/v1/notifications", headers: [(name: "cookie", value: cookie)])
            #expect(read.status == 200)
            let journal = try #require(try read.json() as? [String: Any])
            #expect(journal["total"] as? Int == 1)
            let metrics = try await emulator.admin("/metrics")
            #expect(metrics.status == 200 && !metrics.text.contains(secret) && !read.text.contains(secret))
        }
    }

    @Test("listening beyond loopback without a token, the emulator makes one: 256 bits, different each start, and asked for")
    func generatedToken() async throws {
        var tokens: [String] = []
        for _ in 0..<2 {
            try await withEmulator(configure: { $0.host = "0.0.0.0" }) { emulator in
                let token = try #require(emulator.emulator.configuration.adminToken)
                tokens.append(token)
                let none = try await AdminTestClient.request(host: "127.0.0.1", port: emulator.adminPort, path: "/api/v1/devices")
                #expect(none.status == 401)
                #expect(try await emulator.admin("/api/v1/devices").status == 200)
                // What a device sees does not change: it connects by id as before.
                let plain = try await DeviceClient.connect(
                    host: "127.0.0.1", port: emulator.devicePort, caPath: emulator.caPath, deviceID: "as-before")
                try await plain.close()
            }
        }
        #expect(tokens.count == 2 && tokens[0] != tokens[1] && tokens.allSatisfy { $0.count == 43 })
        try await withEmulator { emulator in
            #expect(emulator.emulator.configuration.adminToken == nil, "loopback asks for none")
        }
    }

    @Test("--require-device-token: a device's hello must bring the admin token (unauthorized otherwise); one that does gets its pushes")
    func deviceToken() async throws {
        try await withEmulator(configure: { $0.host = "0.0.0.0"; $0.devicesNeedAdminToken = true }) { emulator in
            do {
                let stranger = try await DeviceClient.connect(
                    host: "127.0.0.1", port: emulator.devicePort, caPath: emulator.caPath, deviceID: "stranger")
                try? await stranger.close()
                Issue.record("a device without the admin token was welcomed")
            } catch let error as DeviceClientError {
                #expect(error.serverCode == .unauthorized && error.message.contains("--admin-token"), "\(error)")
            }
            let device = try await emulator.device("iphone")
            let issued = try await device.register(topic: Self.topic)
            let provider = try await emulator.http2Client()
            #expect(try await provider.push(token: issued.hex, topic: Self.topic).status == 200)
            try await provider.close()
            let received = try await device.next()
            #expect(received.topic == Self.topic)
            try await device.close()
        }
    }
}

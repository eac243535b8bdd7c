import APNsCore
import APNsServer
import APNsTestSupport
import Foundation
import NIOHTTP2
import Testing

/// `--auth strict` with JWT provider tokens, over real TLS: every reason APNs gives a
/// token-based provider, and that nothing refused is stored.
@Suite("Provider tokens in strict mode")
struct ProviderTokenAuthTests {
    static let device = String(repeating: "ab", count: 32)

    static func strict(clock: ManualClock? = nil) async throws -> RunningEmulator {
        try await RunningEmulator.start {
            $0.auth = .strict
            // Every push kept: these tests count what was accepted in the token's queue.
            $0.storagePolicy = .all
            if let clock { $0.clock = clock.function }
        }
    }

    static func push(
        _ client: HTTP2TestClient, authorization: String?, topic: String? = "com.example.app"
    ) async throws -> HTTP2TestClient.Response {
        try await client.push(token: Self.device, topic: topic, authorization: authorization)
    }

    static func maxConcurrentStreams(_ client: HTTP2TestClient) -> [Int] {
        client.events.settings.filter { $0.parameter == .maxConcurrentStreams }.map(\.value)
    }

    @Test("a valid token is accepted; the connection gets one stream until then and 1000 after")
    func valid() async throws {
        let emulator = try await Self.strict()
        let key = try emulator.registerKey()
        let client = try await emulator.http2Client()
        let response = try await Self.push(client, authorization: try key.authorization(issuedAt: emulator.nowSeconds))
        #expect(response.status == 200)
        #expect(try await emulator.queued(Self.device).count == 1)
        _ = try await client.waitForEvents { $0.settings.contains { $0.parameter == .maxConcurrentStreams && $0.value == 1000 } }
        #expect(Self.maxConcurrentStreams(client) == [1, 1000])
        try await emulator.stop()
    }

    @Test("no authorization, or not a bearer token: 403 MissingProviderToken, nothing stored")
    func missing() async throws {
        let emulator = try await Self.strict()
        _ = try emulator.registerKey()
        let client = try await emulator.http2Client()
        for authorization in [nil, "Basic dXNlcjpwYXNz"] as [String?] {
            let response = try await Self.push(client, authorization: authorization)
            #expect(response.status == 403)
            #expect(response.reason == "MissingProviderToken")
        }
        #expect(try await emulator.queued(Self.device).isEmpty)
        // Never authenticated: still one stream.
        #expect(Self.maxConcurrentStreams(client) == [1])
        try await emulator.stop()
    }

    @Test("malformed, wrongly signed, unknown key, not ES256, or another team's: 403 InvalidProviderToken")
    func invalid() async throws {
        let emulator = try await Self.strict()
        let key = try emulator.registerKey()
        let now = emulator.nowSeconds
        let impostor = TestProviderKey(keyID: key.keyID, teamID: key.teamID, p8: try emulator.registerKey(keyID: "OTHERKEY12").p8)
        let good = try key.authorization(issuedAt: now)
        let parts = good.dropFirst(7).split(separator: ".")
        let hs256Header = Data(#"{"alg":"HS256","kid":"KEY1234567"}"#.utf8).base64EncodedString()
            .replacingOccurrences(of: "=", with: "").replacingOccurrences(of: "+", with: "-").replacingOccurrences(
                of: "/", with: "_")
        let forged: [String: String] = [
            "malformed": "bearer not.a.jwt",
            "two parts": "bearer " + parts[0] + "." + parts[1],
            "signed by another key": try impostor.authorization(issuedAt: now),
            "unknown key id": try key.authorization(issuedAt: now, keyID: "NOSUCHKEY1"),
            "alg HS256": "bearer " + hs256Header + "." + parts[1] + "." + parts[2],
            "iss not the key's team": try key.authorization(issuedAt: now, teamID: "OTHERTEAM1"),
        ]
        for (what, authorization) in forged {
            let client = try await emulator.http2Client()
            let response = try await Self.push(client, authorization: authorization)
            #expect(response.status == 403, "\(what)")
            #expect(response.reason == "InvalidProviderToken", "\(what)")
            // The detail says which key or claim failed.
            let detail = response.header("apns-emulator-detail") ?? ""
            let expected: [String: String] = [
                "signed by another key": "the signature does not verify with key KEY1234567",
                "unknown key id": "no key NOSUCHKEY1 (the token's kid) in the key store",
                "iss not the key's team": "the token's iss OTHERTEAM1 is not the team of key KEY1234567",
            ]
            if let wanted = expected[what] { #expect(detail.hasPrefix(wanted), "\(what): \(detail)") }
            try await client.close()
        }
        #expect(try await emulator.queued(Self.device).isEmpty)
        try await emulator.stop()
    }

    @Test("a second team on one connection: 403 InvalidProviderToken")
    func teamChange() async throws {
        let clock = ManualClock()
        let emulator = try await Self.strict(clock: clock)
        let first = try emulator.registerKey(keyID: "KEYTEAMA01", teamID: "TEAMAAAAAA")
        let second = try emulator.registerKey(keyID: "KEYTEAMB01", teamID: "TEAMBBBBBB")
        let client = try await emulator.http2Client()
        #expect(try await Self.push(client, authorization: try first.authorization(issuedAt: emulator.nowSeconds)).status == 200)
        clock.advance(seconds: 1300)
        let other = try await Self.push(client, authorization: try second.authorization(issuedAt: emulator.nowSeconds))
        #expect(other.status == 403)
        #expect(other.reason == "InvalidProviderToken")
        #expect(
            other.header("apns-emulator-detail")
                == "this connection's tokens are from team TEAMAAAAAA; this one is from TEAMBBBBBB")
        // The other team's token is fine on its own connection.
        let fresh = try await emulator.http2Client()
        #expect(try await Self.push(fresh, authorization: try second.authorization(issuedAt: emulator.nowSeconds)).status == 200)
        #expect(try await emulator.queued(Self.device).count == 2)
        try await emulator.stop()
    }

    @Test("a token older than the lifetime: 403 ExpiredProviderToken, also when it ages on a connection")
    func expired() async throws {
        let clock = ManualClock()
        let emulator = try await Self.strict(clock: clock)
        let key = try emulator.registerKey()
        let client = try await emulator.http2Client()
        let stale = try await Self.push(client, authorization: try key.authorization(issuedAt: emulator.nowSeconds - 3601))
        #expect(stale.status == 403)
        #expect(stale.reason == "ExpiredProviderToken")
        #expect(
            stale.header("apns-emulator-detail")?.hasPrefix("the token's iat is 3601 s old (key KEY1234567); tokens last 3600 s")
                == true, "\(stale.headers)")

        // A fresh token is taken at once: the stale one was never adopted.
        let token = try key.authorization(issuedAt: emulator.nowSeconds)
        #expect(try await Self.push(client, authorization: token).status == 200)
        clock.advance(seconds: 3601)
        let aged = try await Self.push(client, authorization: token)
        #expect(aged.status == 403)
        #expect(aged.reason == "ExpiredProviderToken")
        #expect(try await emulator.queued(Self.device).count == 1)
        try await emulator.stop()
    }

    @Test("changing the token sooner than 20 minutes: 429 TooManyProviderTokenUpdates; later it is taken")
    func tooManyUpdates() async throws {
        let clock = ManualClock()
        let emulator = try await Self.strict(clock: clock)
        let key = try emulator.registerKey()
        let client = try await emulator.http2Client()
        let first = try key.authorization(issuedAt: emulator.nowSeconds)
        #expect(try await Self.push(client, authorization: first).status == 200)
        clock.advance(seconds: 60)
        let second = try key.authorization(issuedAt: emulator.nowSeconds)
        let early = try await Self.push(client, authorization: second)
        #expect(early.status == 429)
        #expect(early.reason == "TooManyProviderTokenUpdates")
        // The connection keeps its first token meanwhile.
        #expect(try await Self.push(client, authorization: first).status == 200)
        clock.advance(seconds: 1140)
        #expect(try await Self.push(client, authorization: second).status == 200)
        #expect(try await emulator.queued(Self.device).count == 3)
        try await emulator.stop()
    }

    @Test("a key limited to topics: another topic is 403 UnrelatedKeyIdInToken; the app's .voip topic is fine")
    func unrelatedKey() async throws {
        let emulator = try await Self.strict()
        let key = try emulator.registerKey(topics: ["com.example.app"])
        let client = try await emulator.http2Client()
        let authorization = try key.authorization(issuedAt: emulator.nowSeconds)
        let other = try await Self.push(client, authorization: authorization, topic: "com.example.other")
        #expect(other.status == 403)
        #expect(other.reason == "UnrelatedKeyIdInToken")
        #expect(
            other.header("apns-emulator-detail")
                == "key KEY1234567 does not allow topic com.example.other (it allows com.example.app)")
        let voip = try await client.push(
            token: Self.device,
            headers: [("authorization", authorization), ("apns-topic", "com.example.app.voip"), ("apns-push-type", "voip")]
        )
        #expect(voip.status == 200)
        #expect(try await emulator.queued(Self.device).count == 1)
        try await emulator.stop()
    }

    @Test("a key for production on a development emulator: 403 BadEnvironmentKeyInToken")
    func wrongEnvironment() async throws {
        let emulator = try await Self.strict()
        let key = try emulator.registerKey(environment: .production)
        let client = try await emulator.http2Client()
        let response = try await Self.push(client, authorization: try key.authorization(issuedAt: emulator.nowSeconds))
        #expect(response.status == 403)
        #expect(response.reason == "BadEnvironmentKeyInToken")
        #expect(try await emulator.queued(Self.device).isEmpty)
        try await emulator.stop()
    }

    @Test("a token without apns-topic: 400 MissingTopic")
    func missingTopic() async throws {
        let emulator = try await Self.strict()
        let key = try emulator.registerKey()
        let client = try await emulator.http2Client()
        let response = try await Self.push(
            client, authorization: try key.authorization(issuedAt: emulator.nowSeconds), topic: nil)
        #expect(response.status == 400)
        #expect(response.reason == "MissingTopic")
        try await emulator.stop()
    }

    @Test("a key registered while the emulator runs is used at once")
    func keyAddedLater() async throws {
        let emulator = try await Self.strict()
        let client = try await emulator.http2Client()
        let unknown = TestProviderKey(
            keyID: "LATEKEY123", teamID: "TEAM123456", p8: try emulator.registerKey(keyID: "UNUSED1234").p8)
        #expect(
            try await Self.push(client, authorization: try unknown.authorization(issuedAt: emulator.nowSeconds)).reason
                == "InvalidProviderToken")
        let key = try emulator.registerKey(keyID: "LATEKEY123")
        let response = try await Self.push(client, authorization: try key.authorization(issuedAt: emulator.nowSeconds))
        #expect(response.status == 200)
        try await emulator.stop()
    }

    @Test("--auth none takes any authorization header, or none, and any topic")
    func noneMode() async throws {
        try await withEmulator { emulator in
            let client = try await emulator.http2Client()
            #expect(try await Self.push(client, authorization: "bearer whatever", topic: "com.any.app").status == 200)
            #expect(try await Self.push(client, authorization: nil, topic: nil).status == 200)
            #expect(Self.maxConcurrentStreams(client) == [1000])
        }
    }
}

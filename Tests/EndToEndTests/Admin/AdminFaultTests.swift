import APNsCore
import APNsProviderClient
import APNsTestSupport
import Foundation
import NIOHTTP2
import Testing

@Suite("Admin API: fault injection, as real clients see it")
struct AdminFaultTests {
    static let topic = "com.example.app"

    func addFault(_ emulator: RunningEmulator, _ json: String) async throws -> [String: Any] {
        try await emulator.adminObject("/api/v1/faults", method: "POST", body: json, status: 201)
    }

    @Test("respond: TooManyRequests for the next two pushes to one token, then 200; journaled as rejected and faulted")
    func respond() async throws {
        try await withEmulator { emulator in
            let token = String(repeating: "11", count: 32)
            let other = String(repeating: "12", count: 32)
            let rule = try await self.addFault(
                emulator,
                #"{"match":{"token":"\#(token.uppercased())"},"action":{"type":"respond","reason":"TooManyRequests"},"times":2}"#)
            let id = try #require(rule["id"] as? String)
            #expect((rule["action"] as? [String: Any])?["status"] as? Int == 429)

            let provider = try await emulator.http2Client()
            let first = try await provider.push(token: token, topic: Self.topic)
            #expect(first.status == 429)
            #expect(first.reason == "TooManyRequests")
            #expect(first.header("apns-id") != nil)
            #expect(try await provider.push(token: other, topic: Self.topic).status == 200)
            #expect(try await emulator.adminObject("/api/v1/faults/\(id)")["hits"] as? Int == 1)
            #expect(try await provider.push(token: token, topic: Self.topic).status == 429)
            // Used up: the rule is gone and the token is served again.
            #expect(try await emulator.admin("/api/v1/faults/\(id)").status == 404)
            #expect(try await provider.push(token: token, topic: Self.topic).status == 200)

            let rejected = try await emulator.journal("token=\(token)&status=rejected")
            #expect(rejected.count == 2)
            #expect(rejected.allSatisfy { $0["reason"] as? String == "TooManyRequests" && $0["httpStatus"] as? Int == 429 })
            #expect(rejected.allSatisfy { ($0["fault"] as? [String: Any])?["id"] as? String == id })
            #expect(try await emulator.queued(token).count == 1)

            // 410 Unregistered made up by a rule carries a timestamp, as APNs' does.
            _ = try await self.addFault(
                emulator, #"{"match":{"token":"\#(other)"},"action":{"type":"respond","reason":"Unregistered"},"times":1}"#)
            let gone = try await provider.push(token: other, topic: Self.topic)
            #expect(gone.status == 410)
            #expect(gone.reason == "Unregistered")
            #expect(gone.timestamp != nil)
        }
    }

    @Test("rules match by topic, push type and interface; probability applies to about its share")
    func matching() async throws {
        try await withEmulator { emulator in
            _ = try await self.addFault(
                emulator,
                #"{"match":{"topic":"com.example.flaky","pushType":"background"},"action":{"type":"respond","reason":"InternalServerError"}}"#
            )
            _ = try await self.addFault(
                emulator,
                #"{"match":{"topic":"com.example.coin"},"action":{"type":"respond","reason":"ServiceUnavailable"},"probability":0.5}"#
            )
            let provider = try await emulator.http2Client()
            let token = String(repeating: "13", count: 32)
            let background = [("apns-push-type", "background"), ("apns-priority", "5")]
            #expect(
                try await provider.push(
                    token: token, headers: [("apns-topic", "com.example.flaky")] + background,
                    json: #"{"aps":{"content-available":1}}"#
                ).status == 500)
            #expect(try await provider.push(token: token, topic: "com.example.flaky").status == 200)
            #expect(
                try await provider.push(
                    token: token, headers: [("apns-topic", Self.topic)] + background, json: #"{"aps":{"content-available":1}}"#
                ).status == 200)

            var refused = 0
            for _ in 0..<200
            where try await provider.push(token: token, topic: "com.example.coin").status == 503 {
                refused += 1
            }
            // Binomial(200, 0.5): outside 60...140 is a six-sigma event.
            #expect((60...140).contains(refused), "\(refused) of 200 refused")
        }
    }

    @Test("delay: the answer comes after the delay, the push is stored and marked")
    func delay() async throws {
        try await withEmulator { emulator in
            let rule = try await self.addFault(
                emulator, #"{"match":{"interface":"http2"},"action":{"type":"delay","ms":400},"times":1}"#)
            let provider = try await emulator.http2Client()
            let token = String(repeating: "14", count: 32)
            let started = ContinuousClock.now
            let response = try await provider.push(token: token, topic: Self.topic)
            let elapsed = ContinuousClock.now - started
            #expect(response.status == 200)
            #expect(elapsed >= .milliseconds(400), "answered after \(elapsed)")
            let entry = try await emulator.adminObject("/api/v1/notifications/\(response.header("apns-unique-id") ?? "")")
            #expect(entry["status"] as? String == "queued")
            #expect((entry["fault"] as? [String: Any])?["id"] as? String == rule["id"] as? String)
            #expect((entry["fault"] as? [String: Any])?["action"] as? String == "delay")
        }
    }

    @Test("delay: a provider that closes its connection before the answer loses only its answer; the push is stored")
    func delayedPastTheConnection() async throws {
        try await withEmulator { emulator in
            _ = try await self.addFault(
                emulator, #"{"match":{"interface":"http2"},"action":{"type":"delay","ms":300},"times":1}"#)
            let provider = try await emulator.http2Client()
            let token = String(repeating: "16", count: 32)
            let pending = try await provider.begin(
                path: "/3/device/\(token)", headers: [("apns-topic", Self.topic)], body: Array(#"{"aps":{}}"#.utf8))
            try await provider.close()
            _ = try? await pending.get()
            // The delayed request is processed after its connection is gone, and the emulator goes on:
            // the journal's wait answers once it is stored.
            let stored = try await emulator.adminObject("/api/v1/notifications/wait?token=\(token)&timeout=10s")
            #expect(stored["status"] as? String == "queued")
            #expect(try await emulator.adminObject("/api/v1/notifications?token=\(token)")["total"] as? Int == 1)
            let again = try await emulator.http2Client()
            #expect(try await again.push(token: token, topic: Self.topic).status == 200)
        }
    }

    @Test("reset: the HTTP/2 connection is reset (ECONNRESET), nothing stored; a new connection works")
    func resetHTTP2() async throws {
        try await withEmulator { emulator in
            _ = try await self.addFault(emulator, #"{"action":{"type":"reset"},"times":1}"#)
            let provider = try await emulator.http2Client()
            let token = String(repeating: "15", count: 32)
            await #expect(throws: ProviderClientError("the stream closed before APNs answered")) {
                try await provider.push(token: token, topic: Self.topic)
            }
            let events = try await provider.waitForEvents { $0.closed }
            #expect(events.resetByPeer)
            #expect(events.goAway == nil)
            #expect(try await emulator.queued(token).isEmpty)
            let entry = try #require(try await emulator.journal("token=\(token)").first)
            #expect(entry["status"] as? String == "rejected")
            #expect((entry["fault"] as? [String: Any])?["action"] as? String == "reset")

            let again = try await emulator.http2Client()
            #expect(try await again.push(token: token, topic: Self.topic).status == 200)
        }
    }

    @Test("goaway: GOAWAY below the faulted stream with its reason; earlier streams were answered; the connection closes")
    func goAway() async throws {
        try await withEmulator { emulator in
            let provider = try await emulator.http2Client()
            let token = String(repeating: "16", count: 32)
            #expect(try await provider.push(token: token, topic: Self.topic).status == 200)
            _ = try await self.addFault(emulator, #"{"match":{"token":"\#(token)"},"action":{"type":"goaway"},"times":1}"#)
            // The stream above GOAWAY's last-stream-id is closed unanswered (CANCEL), free to retry.
            let closed = await #expect(throws: NIOHTTP2Errors.StreamClosed.self) {
                try await provider.push(token: token, topic: Self.topic)
            }
            #expect(closed?.errorCode == .cancel && closed?.streamID == HTTP2StreamID(3), "\(String(describing: closed))")
            let events = try await provider.waitForEvents { $0.closed }
            let goAway = try #require(events.goAway)
            // Stream 1 was answered; stream 3 was not processed and may be retried.
            #expect(goAway.lastStreamID == HTTP2StreamID(1))
            #expect(goAway.errorCode == .noError)
            #expect(goAway.debugData == #"{"reason":"Shutdown"}"#)
            #expect(try await emulator.queued(token).count == 1)
            #expect(try await emulator.journal("token=\(token)&status=rejected").first?["reason"] as? String == "Shutdown")

            let retried = try await emulator.http2Client()
            #expect(try await retried.push(token: token, topic: Self.topic).status == 200)
        }
    }

    @Test("binary: an injected status byte comes back as an error response; a reset resets the TCP connection")
    func binary() async throws {
        try await withEmulator { emulator in
            let token = try #require(DeviceToken(hex: String(repeating: "17", count: 32)))
            _ = try await self.addFault(
                emulator,
                #"{"match":{"token":"\#(token.hex)","interface":"binary"},"action":{"type":"respond","statusByte":10},"times":1}"#
            )
            var stream = BinaryStream()
            stream.frame(token: try #require(DeviceToken(hex: String(repeating: "18", count: 32))), n: 1, identifier: 1)
            stream.frame(token: token, n: 2, identifier: 2)
            stream.frame(token: token, n: 3, identifier: 3)
            let response = try await emulator.gateway(stream)
            #expect(response?.status == .shutdown)
            #expect(response?.identifier == 2)
            #expect(try await emulator.queued(token.hex).isEmpty)
            let entry = try #require(try await emulator.journal("token=\(token.hex)&status=rejected").first)
            #expect(entry["statusByte"] as? Int == 10)
            #expect(entry["source"] as? String == "binary")
            #expect(entry["fault"] is [String: Any])

            _ = try await self.addFault(emulator, #"{"match":{"interface":"binary"},"action":"reset","times":1}"#)
            var next = BinaryStream()
            next.frame(token: token, n: 4, identifier: 4)
            let session = try await RawTLSClient.session(
                host: "127.0.0.1", port: emulator.gatewayPort, caPath: emulator.caPath, sending: next.bytes)
            #expect(session.resetByPeer)
            #expect(session.received.isEmpty)
            #expect(try await emulator.queued(token.hex).isEmpty)
        }
    }

    @Test("rules are listed, read, deleted one by one or all; bad rules get specific errors")
    func crud() async throws {
        try await withEmulator { emulator in
            let a = try await self.addFault(emulator, #"{"action":{"type":"respond","reason":"TooManyRequests","statusByte":1}}"#)
            _ = try await self.addFault(
                emulator, #"{"match":{"pushType":"voip"},"action":{"type":"respond","reason":"Teapot","status":418}}"#)
            #expect(try await (emulator.admin("/api/v1/faults").json() as? [Any])?.count == 2)
            let id = try #require(a["id"] as? String)
            #expect(try await emulator.adminObject("/api/v1/faults/\(id)")["times"] is NSNull)
            #expect(try await emulator.adminObject("/api/v1/faults/\(id)", method: "DELETE")["deleted"] as? Int == 1)
            #expect(try await emulator.admin("/api/v1/faults/\(id)", method: "DELETE").status == 404)
            #expect(try await emulator.adminObject("/api/v1/faults", method: "DELETE")["deleted"] as? Int == 1)
            #expect(try await (emulator.admin("/api/v1/faults").json() as? [Any])?.isEmpty == true)

            let bad: [(String, String)] = [
                ("nope", "JSON object"),
                (#"{"action":{"type":"explode"}}"#, "action.type"),
                (#"{"action":{"type":"respond"}}"#, "reason"),
                (#"{"action":{"type":"respond","reason":"Nope"}}"#, "not an APNs reason"),
                (#"{"action":{"type":"respond","reason":"BadTopic","status":200}}"#, "status"),
                (#"{"action":{"type":"delay","ms":0}}"#, "ms"),
                (#"{"action":"reset","times":0}"#, "times"),
                (#"{"action":"reset","probability":1.5}"#, "probability"),
                (#"{"match":{"colour":"red"},"action":"reset"}"#, "no field colour"),
                (#"{"match":{"interface":"binary"},"action":"goaway"}"#, "never applies to binary"),
                (#"{"match":{"interface":"http2"},"action":{"type":"respond","statusByte":8}}"#, "never applies to http2"),
                // Rules that could never match.
                (#"{"match":{"token":"/api/v1/devices/abab"},"action":"reset"}"#, "match.token must be a device token"),
                (#"{"match":{"token":"abc"},"action":"reset"}"#, "even-length hex"),
                (#"{"match":{"pushType":"email"},"action":"reset"}"#, "not a push type APNs knows"),
                (#"{"match":{"pushType":"alert","interface":"binary"},"action":"reset"}"#, "no push type"),
                (#"{"match":{"interface":"local"},"action":"reset"}"#, "http2, binary, broadcast or webpush"),
            ]
            for (body, hint) in bad {
                let response = try await emulator.admin("/api/v1/faults", method: "POST", body: body)
                #expect(response.status == 400, "\(body)")
                #expect(response.text.contains(hint), "\(body) -> \(response.text)")
            }
        }
    }
}

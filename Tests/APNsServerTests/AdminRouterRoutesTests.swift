import APNsCore
import Foundation
import NIOCore
import Testing

@testable import APNsServer

/// The admin API's routes and request documents, without a socket.
@Suite("Admin router")
struct AdminRouterRoutesTests {
    @Test("health, readiness before and after every listener is bound, unknown endpoints and methods")
    func service() async throws {
        let fixture = try AdminRouterFixture()
        #expect(try await fixture.request("GET", "/healthz").text == #"{"status":"ok"}"#)
        let starting = try await fixture.request("GET", "/readyz")
        #expect(starting.status == 503 && starting.text.contains("not every listener is bound"))
        let address = try SocketAddress(ipAddress: "127.0.0.1", port: 1)
        for front in ListeningAddresses.Front.allCases { fixture.readiness.bound(front, at: address) }
        #expect(try await fixture.request("GET", "/readyz").status == 200)
        let unknown = try await fixture.request("GET", "/api/v1/nothing")
        #expect(unknown.status == 404 && unknown.text.contains("/api/v1/nothing"))
        let method = try await fixture.request("POST", "/healthz")
        #expect(method.status == 405 && method.text.contains("use GET"))
        #expect(try await fixture.request("PUT", "/api/v1/notifications").status == 405)
        try fixture.close()
    }

    @Test("every path and method the OpenAPI document names is routed")
    func openAPI() async throws {
        let fixture = try AdminRouterFixture()
        let document = try #require(try await fixture.request("GET", "/openapi.json").json as? [String: Any])
        #expect(document["openapi"] as? String == "3.0.3")
        let paths = try #require(document["paths"] as? [String: [String: Any]])
        #expect(paths.count >= 12)
        for (path, methods) in paths {
            let concrete =
                path
                .replacingOccurrences(of: "{token}", with: String(repeating: "ab", count: 32)).replacingOccurrences(
                    of: "{asset}", with: "inbox.js"
                )
                .replacingOccurrences(of: "{id}", with: "fault-1")
            for method in methods.keys where ["get", "post", "delete"].contains(method) {
                // A wait that finds nothing must not hold the test: ask for a short one.
                let uri = concrete.hasSuffix("/wait") ? concrete + "?timeout=10ms" : concrete
                let answer = try await fixture.request(
                    method.uppercased(), uri, body: method == "post" && path.hasSuffix("/devices") ? #"{"topic":"t"}"# : "")
                // A routed request may still find nothing (404 with its own words), never "no such endpoint".
                #expect(!answer.text.contains("no such endpoint"), "\(method) \(path): \(answer.text)")
                #expect(answer.status != 405, "\(method) \(path)")
            }
        }
        try fixture.close()
    }

    @Test("fault rules: a good one is added; unknown fields and bad values are refused by name")
    func faultDocuments() async throws {
        let fixture = try AdminRouterFixture()
        let added = try await fixture.request(
            "POST", "/api/v1/faults",
            body: #"{"match":{"topic":"t"},"action":{"type":"respond","reason":"TooManyRequests"},"times":2}"#)
        #expect(added.status == 201)
        let rule = try #require(added.json as? [String: Any])
        #expect((rule["action"] as? [String: Any])?["status"] as? Int == 429)
        #expect(rule["times"] as? Int == 2)
        let refused: [(String, String)] = [
            (#"{"action":"reset","extra":1}"#, "a fault rule has no field extra"),
            (#"{"action":{"type":"reset","colour":"red"}}"#, "action has no field colour"),
            (#"{"action":{"type":"delay","ms":"soon"}}"#, "ms"),
            (#"{"match":"everything","action":"reset"}"#, "match must be an object"),
            (#"{"match":{"interface":"smoke"},"action":"reset"}"#, "match.interface must be http2, binary, broadcast or webpush"),
            (#"{"action":{"type":"respond","statusByte":300}}"#, "statusByte must be from 1 to 255"),
            (#"{"times":2}"#, "action must be an object"),
            // Issue 37: schemathesis found this valid by openapi.json and refused; the schema now says it.
            (#"{"match":{"interface":"broadcast"},"action":{"type":"respond","statusByte":50}}"#, "never applies to broadcast"),
            (#"{"action":{"type":"delay","ms":5,"reason":"Shutdown"}}"#, "a delay action has no field reason"),
            (
                #"{"match":{"interface":"http2","channelId":"abc"},"action":"reset"}"#,
                "only matches channel and broadcast requests"
            ),
            ("[1]", "JSON object"),
        ]
        for (body, hint) in refused {
            let answer = try await fixture.request("POST", "/api/v1/faults", body: body)
            #expect(answer.status == 400, "\(body)")
            #expect(answer.text.contains(hint), "\(body) -> \(answer.text)")
        }
        #expect((try await fixture.request("GET", "/api/v1/faults").json as? [Any])?.count == 1)
        try fixture.close()
    }

    @Test("devices: register, list, unregister into the feedback list, register again; bad bodies named")
    func devices() async throws {
        let fixture = try AdminRouterFixture()
        let token = String(repeating: "cd", count: 32)
        let registered = try await fixture.request(
            "POST", "/api/v1/devices", body: #"{"topic":"com.example.app","token":"\#(token)"}"#)
        #expect(
            registered.status == 201
                && registered.text == #"{"token":"\#(token)","topic":"com.example.app","environment":"development"}"#)
        #expect(
            try await fixture.request("POST", "/api/v1/devices", body: #"{"topic":"com.example.app","token":"\#(token)"}"#).status
                == 409)
        let listed = try #require(try await fixture.request("GET", "/api/v1/devices").json as? [[String: Any]])
        #expect(
            listed.count == 1 && listed[0]["topic"] as? String == "com.example.app" && listed[0]["connected"] as? Bool == false)
        let gone = try await fixture.request("POST", "/api/v1/devices/\(token)/unregister")
        #expect(
            gone.status == 200 && (gone.json as? [String: Any])?["unregisteredAtMs"] is Int
                && (gone.json as? [String: Any])?["unregisteredAt"] is String)
        let feedback = try #require(try await fixture.request("GET", "/api/v1/feedback").json as? [[String: Any]])
        #expect(feedback.map { $0["token"] as? String } == [token])
        #expect(
            try await fixture.request("POST", "/api/v1/devices", body: #"{"topic":"com.example.app","token":"\#(token)"}"#).status
                == 201)
        #expect((try await fixture.request("GET", "/api/v1/feedback").json as? [Any])?.isEmpty == true)

        let extra = try await fixture.request("POST", "/api/v1/devices", body: #"{"topic":"t","deviceId":"phone"}"#)
        #expect(extra.status == 400 && extra.text.contains("a registration has no field deviceId"))
        let missing = try await fixture.request("POST", "/api/v1/devices", body: #"{"token":"\#(token)"}"#)
        #expect(missing.status == 400 && missing.text.contains("topic is missing"))
        let wrongType = try await fixture.request("POST", "/api/v1/devices", body: #"{"topic":7}"#)
        #expect(wrongType.status == 400 && wrongType.text.contains("topic must be a string"))
        #expect(try await fixture.request("POST", "/api/v1/devices", body: #"{"topic":"t","token":"zz"}"#).status == 400)
        try fixture.close()
    }

    @Test("reset: an empty body, a devices flag, and an unknown field refused by name")
    func reset() async throws {
        let fixture = try AdminRouterFixture()
        _ = try await fixture.request("POST", "/api/v1/devices", body: #"{"topic":"com.example.app"}"#)
        let plain = try await fixture.request("POST", "/api/v1/reset")
        #expect(plain.status == 200 && plain.text == #"{"reset":true,"devices":false}"#)
        #expect((try await fixture.request("GET", "/api/v1/devices").json as? [Any])?.count == 1, "tokens survive a plain reset")
        let typo = try await fixture.request("POST", "/api/v1/reset", body: #"{"device":true}"#)
        #expect(typo.status == 400 && typo.text.contains("a reset has no field device"))
        let devices = try await fixture.request("POST", "/api/v1/reset", body: #"{"devices":true}"#)
        #expect(devices.status == 200 && devices.text == #"{"reset":true,"devices":true}"#)
        #expect((try await fixture.request("GET", "/api/v1/devices").json as? [Any])?.isEmpty == true)
        try fixture.close()
    }

    @Test("journal queries: a bad parameter is named, a page has total, items and next")
    func journal() async throws {
        let fixture = try AdminRouterFixture()
        let bad = try await fixture.request("GET", "/api/v1/notifications?status=lost")
        #expect(bad.status == 400 && bad.text.contains("status must be one of"))
        #expect(try await fixture.request("GET", "/api/v1/notifications?limit=0").status == 400)
        let page = try #require(try await fixture.request("GET", "/api/v1/notifications").json as? [String: Any])
        #expect(page["total"] as? Int == 0 && (page["items"] as? [Any])?.isEmpty == true && page["next"] is NSNull)
        let timedOut = try await fixture.request("GET", "/api/v1/notifications/wait?timeout=20ms")
        #expect(timedOut.status == 408)
        try fixture.close()
    }
}

import APNsCore
import APNsTestSupport
import Testing

/// Every request-level reason APNs gives, as a provider sees it on the wire.
@Suite("HTTP/2 rejections")
struct RejectionTests {
    static let token = String(repeating: "b2", count: 32)

    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var method = "POST"
        var path = "/3/device/\(RejectionTests.token)"
        var headers: [(String, String)] = []
        var body: String? = #"{"aps":{}}"#
        var reason: Reason

        var testDescription: String { "\(self.name) → \(self.reason)" }
    }

    static let cases: [Case] = [
        Case(name: "GET", method: "GET", body: nil, reason: .methodNotAllowed),
        Case(name: "unknown path", path: "/3/devices/\(token)", reason: .badPath),
        Case(name: "old API version", path: "/2/device/\(token)", reason: .badPath),
        Case(name: "no token", path: "/3/device/", reason: .missingDeviceToken),
        // Not one token under /3/device/: another path, however its last segment reads.
        Case(name: "a path that walks out", path: "/3/device/../../4/x/\(token)", reason: .badPath),
        Case(name: "a slash in the token", path: "/3/device/abab/\(token)", reason: .badPath),
        Case(name: "a trailing slash", path: "/3/device/\(token)/", reason: .badPath),
        Case(name: "odd-length token", path: "/3/device/abc", reason: .badDeviceToken),
        Case(name: "non-hex token", path: "/3/device/" + String(repeating: "zz", count: 32), reason: .badDeviceToken),
        Case(name: "31-byte token", path: "/3/device/" + String(repeating: "ab", count: 31), reason: .badDeviceToken),
        Case(name: "101-byte token", path: "/3/device/" + String(repeating: "ab", count: 101), reason: .badDeviceToken),
        Case(name: "duplicate apns-topic", headers: [("apns-topic", "a.b"), ("apns-topic", "a.b")], reason: .duplicateHeaders),
        Case(name: "malformed apns-id", headers: [("apns-id", "not-a-uuid")], reason: .badMessageId),
        Case(name: "unknown push type", headers: [("apns-push-type", "banner")], reason: .invalidPushType),
        Case(name: "priority 7", headers: [("apns-priority", "7")], reason: .badPriority),
        Case(
            name: "a .voip topic with no push type", headers: [("apns-topic", "com.example.app.voip")], reason: .invalidPushType),
        Case(name: "negative expiration", headers: [("apns-expiration", "-1")], reason: .badExpirationDate),
        Case(name: "text expiration", headers: [("apns-expiration", "tomorrow")], reason: .badExpirationDate),
        Case(name: "token auth without topic", headers: [("authorization", "bearer x.y.z")], reason: .missingTopic),
        Case(name: "topic with a space", headers: [("apns-topic", "com.example app")], reason: .badTopic),
        Case(
            name: "65-byte collapse id", headers: [("apns-collapse-id", String(repeating: "c", count: 65))],
            reason: .badCollapseId),
        Case(name: "no body", body: nil, reason: .payloadEmpty),
        Case(name: "empty body", body: "", reason: .payloadEmpty),
        Case(name: "body not JSON", body: "hello", reason: .payloadEmpty),
        Case(name: "JSON array body", body: "[1,2]", reason: .payloadEmpty),
        Case(
            name: "4097-byte alert", body: #"{"a":""# + String(repeating: "x", count: 4097 - 8) + #""}"#, reason: .payloadTooLarge
        ),
        Case(
            name: "5121-byte voip", headers: [("apns-push-type", "voip")],
            body: #"{"a":""# + String(repeating: "x", count: 5121 - 8) + #""}"#, reason: .payloadTooLarge
        ),
    ]

    @Test("each bad request gets APNs' status, reason, JSON body and apns-id", arguments: cases)
    func rejection(_ testCase: Case) async throws {
        try await withEmulator { emulator in
            let client = try await emulator.http2Client()
            let response = try await client.send(
                method: testCase.method,
                path: testCase.path,
                headers: testCase.headers,
                body: testCase.body.map { Array($0.utf8) }
            )
            #expect(response.status == testCase.reason.status)
            #expect(response.reason == testCase.reason.wire)
            #expect(response.header("content-type") == "application/json")
            #expect(response.header("apns-id").map(APNsID.isCanonical) == true)
            #expect(response.timestamp == nil)
            #expect(try await emulator.admin("/api/v1/devices/\(Self.token)/notifications").text == "[]")
        }
    }

    // Apple, "Handling error responses from APNs": BadDeviceToken has several causes; the detail
    // names the request's own (issue 70: an 8-character token listed three possible causes).
    @Test("a malformed token's BadDeviceToken says what is wrong with it, with its own figures")
    func badTokenDetail() async throws {
        try await withEmulator { emulator in
            let client = try await emulator.http2Client()
            let short = try await client.push(token: "abcd1234")
            #expect(short.reason == "BadDeviceToken")
            let shortDetail = short.header("apns-emulator-detail") ?? ""
            #expect(shortDetail.hasPrefix("8 hex digits; a device token is 64"), "\(shortDetail)")
            let letter = try await client.push(token: String(repeating: "ab", count: 31) + "zz")
            let letterDetail = letter.header("apns-emulator-detail") ?? ""
            #expect(letterDetail.hasPrefix(#"character 63 of the token, "z", is not a hex digit"#), "\(letterDetail)")
            try await client.close()
        }
    }

    @Test("a rejected request echoes a well-formed apns-id")
    func rejectionEchoesID() async throws {
        try await withEmulator { emulator in
            let client = try await emulator.http2Client()
            let id = "AAAAAAAA-BBBB-CCCC-DDDD-EEEEEEEEEEEE"
            let response = try await client.push(token: Self.token, headers: [("apns-id", id), ("apns-priority", "2")])
            #expect(response.status == 400)
            #expect(response.header("apns-id") == id)
        }
    }

    @Test("payloads at the limits are accepted: 4096 bytes, 5120 for voip, every push type")
    func limitsAccepted() async throws {
        try await withEmulator { emulator in
            let client = try await emulator.http2Client()
            let alert = #"{"a":""# + String(repeating: "x", count: 4096 - 8) + #""}"#
            #expect(alert.utf8.count == 4096)
            #expect(try await client.push(token: Self.token, json: alert).status == 200)
            let voip = #"{"a":""# + String(repeating: "x", count: 5120 - 8) + #""}"#
            #expect(try await client.push(token: Self.token, headers: [("apns-push-type", "voip")], json: voip).status == 200)
            for type in PushType.all {
                let priority = type == .background ? "5" : "10"
                let response = try await client.push(
                    token: Self.token, headers: [("apns-push-type", type.rawValue), ("apns-priority", priority)])
                #expect(response.status == 200, "push type \(type)")
            }
            for priority in ["1", "5", "10"] {
                #expect(try await client.push(token: Self.token, headers: [("apns-priority", priority)]).status == 200)
            }
            let long = String(repeating: "ab", count: 100)
            #expect(try await client.push(token: long).status == 200)
        }
    }
}

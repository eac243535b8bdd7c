import APNsCore
import APNsServer
import APNsTestSupport
import Foundation
import Testing

/// `POST /api/v1/push` hands the push to the provider API's intake in process (issue 38): the
/// answers a provider connection without a client certificate gets, the same authentication and
/// fault rules, and what no answer means when a rule ends the connection.
@Suite("Admin push through the intake")
struct AdminPushIntakeTests {
    static let device = String(repeating: "ef", count: 32)

    @Test("strict mode: no authorization is 403 MissingProviderToken and nothing is stored; a key's token pushes (issue 38)")
    func strict() async throws {
        try await withEmulator(configure: { $0.auth = .strict }) { emulator in
            let key = try emulator.registerKey()
            // Apple's "Establishing a token-based connection to APNs": a request without a provider
            // token on a connection without a certificate is 403 MissingProviderToken.
            let refused = try await emulator.adminObject(
                "/api/v1/push", method: "POST",
                body: #"{"token": "\#(Self.device)", "topic": "com.example.app", "payload": {"aps": {"alert": "Hi"}}}"#)
            #expect(refused["status"] as? Int == 403 && refused["reason"] as? String == "MissingProviderToken", "\(refused)")
            #expect(try await emulator.queued(Self.device).isEmpty)
            let authorization = try key.authorization(issuedAt: emulator.nowSeconds)
            let sent = try await emulator.adminObject(
                "/api/v1/push", method: "POST",
                body:
                    #"{"token": "\#(Self.device)", "topic": "com.example.app", "authorization": "\#(authorization)", "payload": {"aps": {"alert": "Hi"}}}"#
            )
            #expect(sent["status"] as? Int == 200 && sent["apnsId"] is String, "\(sent)")
            #expect(try await emulator.queued(Self.device).count == 1)
        }
    }

    @Test(
        "a fault rule that resets the connection: 502 saying so, and the journal shows the push with the rule's mark (issue 38)")
    func resetFault() async throws {
        try await withEmulator { emulator in
            let rule = try await emulator.adminObject(
                "/api/v1/faults", method: "POST",
                body: #"{"match": {"token": "\#(Self.device)"}, "action": {"type": "reset"}, "times": 1}"#, status: 201)
            let answer = try await emulator.admin(
                "/api/v1/push", method: "POST",
                body: #"{"token": "\#(Self.device)", "topic": "com.example.app", "payload": {"aps": {"alert": "Hi"}}}"#)
            #expect(
                answer.status == 502 && String(decoding: answer.body, as: UTF8.self).contains("reset the provider's connection"),
                "\(String(decoding: answer.body, as: UTF8.self))")
            let journal = try await emulator.adminObject("/api/v1/notifications?token=\(Self.device)")
            let items = try #require(journal["items"] as? [[String: Any]])
            let fault = items.first?["fault"] as? [String: Any]
            #expect(
                fault?["id"] as? String == rule["id"] as? String && fault?["action"] as? String == "reset"
                    && items.first?["status"] as? String == "rejected", "\(items)")
            // The next push, the rule spent, is stored.
            let sent = try await emulator.adminObject(
                "/api/v1/push", method: "POST",
                body: #"{"token": "\#(Self.device)", "topic": "com.example.app", "payload": {"aps": {"alert": "Hi"}}}"#)
            #expect(sent["status"] as? Int == 200)
        }
    }
}

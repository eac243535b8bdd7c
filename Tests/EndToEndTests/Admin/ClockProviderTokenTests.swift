import APNsCore
import APNsInspection
import APNsTestSupport
import Foundation
import Testing

@Suite("The emulator clock and provider tokens")
struct ClockProviderTokenTests {
    @Test("provider-token ages keep real time: two hours ahead, a token signed now is still taken")
    func tokensKeepRealTime() async throws {
        try await withEmulator(configure: { $0.auth = .strict }) { emulator in
            let key = try emulator.registerKey()
            _ = try await emulator.adminObject("/api/v1/clock", method: "POST", body: #"{"advance": "2h"}"#)
            let client = try await emulator.http2Client()
            let signedNow = try key.authorization(issuedAt: Int64(Date().timeIntervalSince1970))
            let response = try await client.push(
                token: String(repeating: "ab", count: 32),
                headers: [("authorization", signedNow), ("apns-topic", "com.example.app")])
            #expect(response.status == 200)
        }
    }
}

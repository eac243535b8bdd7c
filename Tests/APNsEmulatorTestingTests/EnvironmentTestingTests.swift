import APNsCore
import APNsEmulatorTesting
import APNsProviderClient
import Foundation
import Testing

/// Both environments in the testing library, as a server app's test uses them (issue 72). Apple,
/// "Handling notification responses from APNs": 400 BadDeviceToken, "verify … that the token
/// matches the environment".
@Suite("TestEmulator: both environments")
struct EnvironmentTestingTests {
    static let topic = "com.example.orders"

    @Test("each build's token is taken at its endpoint; the journal and the token check say which")
    func eachBuildAtItsEndpoint() async throws {
        let emulator = try await TestEmulator.start(auth: .none)
        let debug = try await emulator.registerDevice(topic: Self.topic, environment: .development)
        let testflight = try await emulator.registerDevice(topic: Self.topic, environment: .production)
        #expect(emulator.sandboxURL == emulator.providerURL && emulator.productionURL != emulator.sandboxURL)
        #expect(emulator.url(for: .production) == "https://localhost:\(emulator.productionHTTP2Port)")
        #expect(try await emulator.push(token: debug, topic: Self.topic).isAccepted)
        #expect(try await emulator.push(token: testflight, topic: Self.topic, environment: .production).isAccepted)
        let atProduction = try await emulator.notifications(environment: .production)
        #expect(atProduction.map(\.token) == [testflight] && atProduction.first?.environment == .production)
        let check = try await emulator.checkToken(testflight)
        #expect(check.known && check.registered && check.environment == .production && check.endpoint == "api.push.apple.com")
        #expect(try await emulator.checkToken(String(repeating: "ab", count: 32)).known == false)
        try await emulator.shutdown()
    }

    @Test("a provider configured for production is caught sending a debug build's token")
    func wrongEnvironmentIsCaught() async throws {
        let emulator = try await TestEmulator.start(auth: .none)
        let debug = try await emulator.registerDevice(topic: Self.topic)
        // The provider under test: its own HTTP/2 client, at the port of its production setting.
        let client = try await ProviderClient.connect(
            host: "localhost", port: emulator.productionHTTP2Port, trust: .certificates(Array(emulator.caPEM.utf8)))
        let answer = try await client.push(
            ProviderPush(token: debug, headers: [("apns-topic", Self.topic)], payload: Array(#"{"aps":{"alert":"hi"}}"#.utf8)))
        try await client.close()
        #expect(answer.status == 400 && answer.error.reason == "BadDeviceToken")
        #expect(answer.header("apns-emulator-detail")?.contains("issued to a development build") == true)
        let refused = try await emulator.notifications(status: "rejected", environment: .production)
        #expect(refused.map(\.token) == [debug])
        try await emulator.shutdown()
    }
}

import APNsCore
import APNsTestSupport
import Foundation
import Testing

/// The legacy binary interface in both environments, told apart by TLS SNI as a provider that
/// resolves Apple's hosts to the emulator sends it: `gateway.push.apple.com` and
/// `feedback.push.apple.com` are production, `gateway.sandbox.push.apple.com` and
/// `feedback.sandbox.push.apple.com` the sandbox; any other name leaves `--environment`'s.
///
/// Sources: Apple, "Binary Provider API" (the legacy guide in ../shared/seeds: gateway.push.apple.com:2195
/// and gateway.sandbox.push.apple.com:2195, feedback on 2196, status 8 "Invalid token");
/// "Handling notification responses from APNs" (a token belongs to its environment).
@Suite("The binary gateway and feedback in both environments, by SNI")
struct GatewayEnvironmentTests {
    static func frames(_ tokens: [String]) throws -> BinaryStream {
        var stream = BinaryStream()
        for (index, hex) in tokens.enumerated() {
            stream.frame(token: try #require(DeviceToken(hex: hex)), n: index + 1, identifier: UInt32(index + 1))
        }
        return stream
    }

    @Test(
        "SNI gateway.push.apple.com takes a production build's token and refuses a development build's with status 8; without it, the reverse"
    )
    func gatewayBySNI() async throws {
        try await withEmulator { emulator in
            let development = try await EnvironmentTests.register(emulator, environment: "development")
            let production = try await EnvironmentTests.register(emulator, environment: "production")
            let atProduction = try await emulator.gateway(
                try Self.frames([production, development]), serverName: "gateway.push.apple.com")
            #expect(atProduction?.status == .invalidToken && atProduction?.identifier == 2, "\(String(describing: atProduction))")
            let atSandbox = try await emulator.gateway(
                try Self.frames([development, production]), serverName: "gateway.sandbox.push.apple.com")
            #expect(atSandbox?.status == .invalidToken && atSandbox?.identifier == 2, "\(String(describing: atSandbox))")
            // No Apple host: the port's environment, development here.
            let plain = try await emulator.gateway(try Self.frames([production]))
            #expect(plain?.status == .invalidToken && plain?.identifier == 1)
            #expect(try await emulator.queued(production).count == 1)
            #expect(try await emulator.queued(development).count == 1)
            let accepted = try await emulator.journal("interface=binary&status=queued&environment=production")
            #expect(accepted.map { $0["token"] as? String } == [production], "\(accepted)")
        }
    }

    @Test(
        "the feedback service lists each environment's gone tokens on its host: feedback.push.apple.com production's, the sandbox's otherwise"
    )
    func feedbackBySNI() async throws {
        try await withEmulator { emulator in
            let development = try await EnvironmentTests.register(emulator, environment: "development")
            let production = try await EnvironmentTests.register(emulator, environment: "production")
            for token in [development, production] {
                _ = try await emulator.adminObject("/api/v1/devices/\(token)/unregister", method: "POST")
            }
            let productionList = try await emulator.feedbackTuples(serverName: "feedback.push.apple.com")
            #expect(productionList.map { DeviceToken(bytes: $0.token)?.hex } == [production], "\(productionList)")
            let sandboxList = try await emulator.feedbackTuples(serverName: "feedback.sandbox.push.apple.com")
            #expect(sandboxList.map { DeviceToken(bytes: $0.token)?.hex } == [development], "\(sandboxList)")
            // Each was read once and left its list.
            #expect(try await emulator.feedbackTuples(serverName: "feedback.push.apple.com").isEmpty)
        }
    }
}

import APNsCore
import APNsDevice
import APNsDeviceClient
import APNsTestSupport
import Foundation
import Testing

/// VoIP pushes over real sockets (Apple, `pushRegistry(_:didReceiveIncomingPushWith:for:completion:)`:
/// an app that does not report a call to CallKit is terminated; repeated failures stop delivery).
@Suite("VoIP pushes, end to end")
struct VoIPPushEndToEndTests {
    static let topic = "com.example.call"

    @Test("the app says over the device protocol that it reports no call: terminated, then no more VoIP pushes until launched")
    func unreported() async throws {
        try await withEmulator { emulator in
            let device = try await emulator.device("iphone-\(UUID().uuidString.prefix(6))")
            // PushKit's token is one of its own, for the topic <bundle id>.voip; the app is the bundle's.
            let token = try await device.register(topic: Self.topic + ".voip")
            let provider = try await emulator.http2Client()
            let app = try await device.configure(topic: Self.topic, document: Array(#"{"reportsCalls": false}"#.utf8))
            #expect(!app.voipPushes.reportsCalls)
            var outcomes: [WakeOutcome.Kind] = []
            for _ in 0..<4 {
                let uniqueID = try await provider.accepted(token: token.hex, topic: Self.topic + ".voip", pushType: "voip")
                _ = try await device.next()
                try await device.acknowledge(uniqueID)
                outcomes.append(try #require(try await device.presentation(of: uniqueID).wake?.outcome))
            }
            #expect(outcomes == [.terminated, .terminated, .terminated, .notWoken])
            let read = try await emulator.adminObject("/api/v1/devices/\(token.hex)/app")
            #expect(read["reportsCalls"] as? Bool == false)
        }
    }
}

import APNsCore
import APNsDeviceClient
import APNsTestSupport
import Foundation
import Testing

/// A pong says every frame before its ping was taken in, acknowledgements included: a device (or
/// `apns-emulator device --count`) that pings after its last acknowledgement and leaves finds
/// nothing it acknowledged still queued.
@Suite("Acknowledgements before a ping")
struct DeviceAckOrderTests {
    @Test("the pong after 200 acknowledgements comes once the store has recorded them all: the queue is empty when it arrives")
    func pongAfterAcknowledgements() async throws {
        try await withEmulator(configure: { $0.storagePolicy = .all }) { emulator in
            let token = try await emulator.offlineToken(topic: "com.example.app")
            let provider = try await emulator.http2Client()
            try await withThrowingTaskGroup(of: Int.self) { group in
                for n in 0..<200 {
                    group.addTask {
                        try await provider.push(token: token.hex, topic: "com.example.app", json: #"{"n":\#(n)}"#).status
                    }
                }
                for try await status in group { #expect(status == 200) }
            }
            let device = try await emulator.device("phone")
            _ = try await device.resume([token])
            var received: [String] = []
            for _ in 0..<200 { received.append(try await device.next().uniqueID) }
            for uniqueID in received { try await device.acknowledge(uniqueID) }
            try await device.ping()
            let left = try await emulator.queued(token.hex)
            #expect(left.isEmpty, "\(left.count) of the 200 acknowledged still queued when the pong came")
        }
    }
}

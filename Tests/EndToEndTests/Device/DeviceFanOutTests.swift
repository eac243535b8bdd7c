import APNsCore
import APNsDeviceClient
import APNsTestSupport
import Foundation
import Testing

/// A thousand devices at once: a thousand TLS handshakes and pushes in a burst that takes the
/// machine's CPU for seconds. `.ci/run` runs this suite in a step of its own with the other
/// CPU-heavy ones, so that the burst does not starve the rest of the suite's waits (issue 37: on a
/// machine already busy with stress-ng, tests around it timed out connecting).
@Suite("Device delivery: fan-out")
struct DeviceFanOutTests {
    @Test("1000 connected devices each receive their push")
    func fanOut() async throws {
        try await withEmulator(configure: { $0.durability = .relaxed }) { emulator in
            let devices = try await withThrowingTaskGroup(of: (DeviceClient, DeviceToken).self) { group in
                for i in 0..<1000 {
                    group.addTask {
                        let device = try await emulator.device("fan-\(i)")
                        return (device, try await device.register(topic: DeviceDeliveryTests.topic))
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(devices.count == 1000)
            let provider = try await emulator.http2Client()
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for (i, device) in devices.enumerated() {
                    group.addTask { try await DeviceDeliveryTests().push(provider, device.1, i).status }
                }
                return try await group.reduce(into: [Int: Int]()) { $0[$1, default: 0] += 1 }
            }
            #expect(statuses == [200: 1000])
            let received = try await withThrowingTaskGroup(of: Bool.self) { group in
                for (i, device) in devices.enumerated() {
                    group.addTask {
                        let notification = try await device.0.next(within: .seconds(30))
                        return notification.token == device.1 && DeviceDeliveryTests().number(notification) == i
                    }
                }
                return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
            }
            #expect(received == 1000)
        }
    }
}

import APNsCore
import APNsDeviceClient
import APNsServer
import APNsTestSupport
import Dispatch
import Foundation
import Synchronization

/// Push-to-device latency: providers push to connected devices over real TLS; each payload
/// carries its send time, each device notes when it arrives. Prints the distribution.
///
///   swift run -c release APNsBenchmark [devices=100] [pushes=20000] [concurrency=10]
enum DeliveryBenchmark {
    /// Off the main actor: everything here runs on the cooperative pool and the event loops.
    nonisolated static func run(_ arguments: [Int]) async throws {
        let deviceCount = arguments.count > 0 ? arguments[0] : 100
        let pushCount = arguments.count > 1 ? arguments[1] : 20_000
        let concurrency = arguments.count > 2 ? arguments[2] : 10

        let emulator = try await RunningEmulator.start { $0.durability = .relaxed }
        var connected: [(DeviceClient, DeviceToken)] = []
        for i in 0..<deviceCount {
            let device = try await emulator.device("bench-\(i)")
            connected.append((device, try await device.register(topic: "com.example.bench")))
        }
        let devices = connected
        let latencies = Latencies()
        let receivers = Task { try await Self.receive(on: devices.map(\.0), until: pushCount, into: latencies) }

        let started = DispatchTime.now().uptimeNanoseconds
        let failures = try await Self.push(pushCount, to: devices.map(\.1), from: concurrency, emulator)
        let deadline = ContinuousClock.now + .seconds(60)
        while latencies.values.withLock({ $0.count }) < pushCount, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(10))
        }
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
        receivers.cancel()

        let sorted = latencies.values.withLock { $0 }.sorted()
        func percentile(_ p: Double) -> String {
            guard !sorted.isEmpty else { return "-" }
            let index = min(sorted.count - 1, Int((Double(sorted.count) * p).rounded(.up)) - 1)
            return String(format: "%.2f ms", Double(sorted[max(0, index)]) / 1e6)
        }
        print(
            "push-to-device latency, relaxed mode: \(deviceCount) devices, \(pushCount) pushes, \(concurrency) concurrent providers"
        )
        print(
            "  received \(sorted.count)/\(pushCount), provider errors \(failures), \(String(format: "%.0f", Double(sorted.count) / elapsed)) deliveries/s"
        )
        print("  p50 \(percentile(0.50))  p90 \(percentile(0.90))  p99 \(percentile(0.99))  max \(percentile(1.0))")
        try await emulator.stop()
    }

    /// Notes each push's latency as it arrives on any of `devices`, acknowledging it, until
    /// `expected` have arrived.
    nonisolated static func receive(on devices: [DeviceClient], until expected: Int, into latencies: Latencies) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            for device in devices {
                group.addTask {
                    for try await notification in device.notifications {
                        let now = DispatchTime.now().uptimeNanoseconds
                        if let sent = Self.sendTime(in: notification.payload) {
                            let done = latencies.values.withLock { latencies in
                                latencies.append(now &- sent)
                                return latencies.count >= expected
                            }
                            if done { return }
                        }
                        try await device.acknowledge(notification.uniqueID)
                    }
                }
            }
            // Stop every receiver once all pushes have arrived.
            _ = try await group.next()
            group.cancelAll()
        }
    }

    /// Sends `count` pushes round-robin over `tokens` from `concurrency` HTTP/2 providers, each
    /// carrying its send time; returns how many were not answered 200.
    nonisolated static func push(
        _ count: Int, to tokens: [DeviceToken], from concurrency: Int, _ emulator: RunningEmulator
    ) async throws -> Int {
        let providers = try await withThrowingTaskGroup(of: HTTP2TestClient.self) { group in
            for _ in 0..<concurrency { group.addTask { try await emulator.http2Client() } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        return try await withThrowingTaskGroup(of: Int.self) { group in
            for (index, provider) in providers.enumerated() {
                group.addTask {
                    var failures = 0
                    var n = index
                    while n < count {
                        let token = tokens[n % tokens.count]
                        let json = #"{"aps":{"alert":"bench"},"t":\#(DispatchTime.now().uptimeNanoseconds)}"#
                        let status = try await provider.push(
                            token: token.hex, headers: [("apns-topic", "com.example.bench")], json: json
                        ).status
                        if status != 200 { failures += 1 }
                        n += providers.count
                    }
                    return failures
                }
            }
            return try await group.reduce(0, +)
        }
    }

    final class Latencies: Sendable {
        let values = Mutex<[UInt64]>([])
    }

    /// The `"t":<ns>` the benchmark put in the payload.
    nonisolated static func sendTime(in payload: [UInt8]) -> UInt64? {
        let text = String(decoding: payload, as: UTF8.self)
        guard let range = text.range(of: "\"t\":") else { return nil }
        return UInt64(text[range.upperBound...].prefix { $0.isNumber })
    }
}

import APNsCore
import APNsTestSupport
import Foundation
import Testing

@Suite("Admin API: Prometheus metrics")
struct AdminMetricsTests {
    static let topic = "com.example.app"

    /// Samples of the text exposition format: `name{labels} value` → value, keyed by `name{labels}`.
    static func samples(_ text: String) throws -> [String: Double] {
        var samples: [String: Double] = [:]
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            guard let space = line.lastIndex(of: " "), let value = Double(line[line.index(after: space)...]) else {
                throw TestClientError.unexpected("not a sample line: \(line)")
            }
            samples[String(line[..<space])] = value
        }
        return samples
    }

    @Test(
        "accepted, rejected by interface/status/reason, delivered, queue depth, connections, latency and commits; no token labels"
    )
    func metrics() async throws {
        try await withEmulator { emulator in
            let device = try await emulator.device()
            let online = try await device.register(topic: Self.topic)
            let provider = try await emulator.http2Client()
            let offline = String(repeating: "21", count: 32)
            for _ in 0..<3 {
                #expect(try await provider.push(token: offline, topic: Self.topic).status == 200)
            }
            #expect(try await provider.push(token: online.hex, topic: Self.topic).status == 200)
            try await device.acknowledge(try await device.next().uniqueID)
            #expect(try await provider.push(token: "00", headers: []).status == 400)
            #expect(try await provider.push(token: "00", headers: []).status == 400)
            var stream = BinaryStream()
            stream.frame(token: try #require(DeviceToken(hex: offline)), n: 1, identifier: 1)
            stream.frame(
                BinaryPushRequest(command: 2, identifier: 2, expiry: 0, token: [], payload: Array("{}".utf8), priority: 10))
            #expect(try await emulator.gateway(stream)?.status == .missingDeviceToken)

            let response = try await emulator.admin("/metrics")
            #expect(response.status == 200)
            let text = response.text
            #expect(!text.contains(offline) && !text.contains(online.hex), "a device token became a label")
            var samples = try Self.samples(text)
            #expect(samples[#"apns_notifications_accepted_total{interface="http2"}"#] == 4)
            #expect(samples[#"apns_notifications_accepted_total{interface="binary"}"#] == 1)
            #expect(samples[#"apns_notifications_rejected_total{interface="http2",status="400",reason="BadDeviceToken"}"#] == 2)
            #expect(
                samples[#"apns_notifications_rejected_total{interface="binary",status="2",reason="Missing device token"}"#] == 1)
            #expect(
                await eventually {
                    samples = (try? Self.samples(try await emulator.admin("/metrics").text)) ?? [:]
                    return samples["apns_notifications_delivered_total"] == 1
                })
            // One per app while offline (APNs's storage): HTTP/2's newest and the binary one (no topic).
            #expect(samples["apns_queue_depth"] == 2)
            #expect(samples["apns_notifications_replaced_total"] == 2)
            #expect(samples["apns_devices_connected"] == 1)
            #expect(samples[#"apns_providers_connected{interface="http2"}"#] == 1)
            #expect(samples[#"apns_accept_latency_seconds_count{interface="http2"}"#] == 4)
            #expect(samples[#"apns_accept_latency_seconds_count{interface="binary"}"#] == 1)
            #expect((samples[#"apns_accept_latency_seconds_bucket{interface="http2",le="+Inf"}"#] ?? 0) == 4)
            #expect((samples["apns_store_commit_batch_size_count"] ?? 0) >= 1)
            #expect((samples["apns_store_commit_batch_size_sum"] ?? 0) >= 6)
            #expect((samples["apns_store_commit_duration_seconds_count"] ?? 0) >= 1)
            #expect(samples[#"apns_provider_connections_opened_total{interface="http2"}"#] == 1)
            try await provider.close()
            // Issue 52: a second connection counts as opened; the gauge falls back to what is open.
            let second = try await emulator.http2Client()
            // A request answered: the server has the connection (a TLS 1.3 client may close before it does).
            #expect(try await second.push(token: String(repeating: "ab", count: 32), topic: "com.example.app").status == 200)
            try await second.close()
            #expect(
                await eventually {
                    let now = (try? Self.samples(try await emulator.admin("/metrics").text)) ?? [:]
                    return now[#"apns_providers_connected{interface="http2"}"#] == 0
                        && now[#"apns_provider_connections_opened_total{interface="http2"}"#] == 2
                })
        }
    }
}

import APNsCore
import APNsTestSupport
import Foundation
import Testing

@Suite("Admin API: devices")
struct AdminDevicesTests {
    @Test("register without a connection, list devices with connection and queue, unregister -> 410")
    func devices() async throws {
        try await withEmulator { emulator in
            let created = try await emulator.admin("/api/v1/devices", method: "POST", body: #"{"topic":"com.example.app"}"#)
            #expect(created.status == 201)
            let token = try #require((try created.json() as? [String: Any])?["token"] as? String)
            #expect(DeviceToken(hex: token)?.bytes.count == 32)

            let provider = try await emulator.http2Client()
            #expect(try await provider.push(token: token, topic: "com.example.app").status == 200)
            let open = String(repeating: "0e", count: 32)
            #expect(try await provider.push(token: open).status == 200)

            let device = try await emulator.device()
            let connectedToken = try await device.register(topic: "com.example.chat")

            let list = try #require(try await emulator.admin("/api/v1/devices").json() as? [[String: Any]])
            func entry(_ hex: String) -> [String: Any]? { list.first { $0["token"] as? String == hex } }
            #expect(entry(token)?["topic"] as? String == "com.example.app")
            #expect(entry(token)?["queued"] as? Int == 1)
            #expect(entry(token)?["connected"] as? Bool == false)
            #expect(entry(connectedToken.hex)?["connected"] as? Bool == true)
            #expect(entry(connectedToken.hex)?["deviceId"] as? String != nil)
            #expect(entry(open)?["queued"] as? Int == 1)
            #expect(entry(open)?["topic"] is NSNull)

            let unregistered = try await emulator.admin("/api/v1/devices/\(token)/unregister", method: "POST")
            #expect(unregistered.status == 200)
            let at = try #require((try unregistered.json() as? [String: Any])?["unregisteredAtMs"] as? Int64)
            let refused = try await provider.push(token: token, topic: "com.example.app")
            #expect(refused.status == 410)
            #expect(refused.timestamp == at)
            let after = try #require(try await emulator.admin("/api/v1/devices").json() as? [[String: Any]])
            let gone = try #require(after.first { $0["token"] as? String == token })
            #expect(gone["unregisteredAt"] is String && gone["unregisteredAtMs"] as? Int64 == at)
            // One form per field: the unregister answer's time reads as the list's.
            #expect(
                (try unregistered.json() as? [String: Any])?["unregisteredAt"] as? String == gone["unregisteredAt"] as? String)
            #expect(gone["queued"] as? Int == 0)
        }
    }

    @Test("bad admin requests get clear errors")
    func badRequests() async throws {
        try await withEmulator { emulator async throws in
            #expect(try await emulator.admin("/api/v1/devices", method: "POST", body: "{}").status == 400)
            #expect(try await emulator.admin("/api/v1/devices", method: "POST", body: "nope").status == 400)
            #expect(try await emulator.admin("/api/v1/devices/xyz/unregister", method: "POST").status == 400)
            #expect(try await emulator.admin("/api/v1/devices/xyz/notifications").status == 400)
            #expect(try await emulator.admin("/api/v1/devices", method: "DELETE").status == 405)
            #expect(try await emulator.admin("/api/v1/nothing").status == 404)
        }
    }
}

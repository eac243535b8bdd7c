import APNsCore
import APNsDevice
import APNsDeviceClient
import APNsTestSupport
import Foundation
import Testing

/// The phone for a token no device holds: presented as each push is accepted, the admin API
/// acting as the user.
@Suite("The phone without a device")
struct PhoneDevicelessTests {
    static let topic = PhoneTests.topic

    @Test(
        "a token no device holds: once its app has settings, each push is presented as it is accepted; the admin API acts as the user"
    )
    func deviceless() async throws {
        try await withEmulator { emulator in
            let issued = try await emulator.adminObject(
                "/api/v1/devices", method: "POST", body: #"{"topic": "\#(Self.topic)"}"#, status: 201)
            let token = try #require(issued["token"] as? String)
            let provider = try await emulator.http2Client()
            // No settings yet: nothing is decided for a phone nobody holds.
            let before = try #require(
                try await provider.push(token: token, topic: Self.topic).header("apns-unique-id"))
            #expect(try await emulator.adminObject("/api/v1/notifications/\(before)")["presentation"] is NSNull)

            _ = try await emulator.adminObject(
                "/api/v1/devices/\(token)/app", method: "PUT",
                body:
                    #"{"authorization": {"status": "authorized", "alert": true, "badge": true}, "alertStyle": "alert", "categories": [{"identifier": "C", "actions": [{"identifier": "OK", "title": "OK"}]}]}"#
            )
            let response = try await provider.push(
                token: token, headers: [("apns-topic", Self.topic)],
                json: #"{"aps":{"alert":"Hi","sound":"default","badge":9,"category":"C"}}"#)
            let uniqueID = try #require(response.header("apns-unique-id"))
            let presentation = try #require(
                try await emulator.adminObject("/api/v1/notifications/\(uniqueID)")["presentation"] as? [String: Any])
            #expect(presentation["shown"] as? Bool == true && presentation["style"] as? String == "alert")
            #expect((presentation["suppressed"] as? [String: String])?.keys.sorted() == ["sound"])
            #expect(try await emulator.adminObject("/api/v1/devices/\(token)/app")["badge"] as? Int == 9)
            let answer = try await emulator.adminObject(
                "/api/v1/notifications/\(uniqueID)/respond", method: "POST", body: #"{"action": "OK"}"#)
            #expect(answer["context"] as? String == "alert" && answer["launched"] as? Bool == true)
        }
    }

    @Test("issue 52: a token no device holds is presented at acceptance: apns-expiration 0 is shown and delivered, not discarded; a stored one is delivered too")
    func devicelessExpirationZero() async throws {
        try await withEmulator { emulator in
            let registered = try await emulator.adminObject(
                "/api/v1/devices", method: "POST", body: #"{"topic": "com.example.deviceless"}"#, status: 201)
            let token = try #require(registered["token"] as? String)
            _ = try await emulator.adminObject(
                "/api/v1/devices/\(token)/app", method: "PUT", body: #"{"authorization": {"status": "authorized", "alert": true}}"#)
            let provider = try await emulator.http2Client()
            let now = try await provider.push(
                token: token, topic: "com.example.deviceless", headers: [("apns-expiration", "0")],
                json: #"{"aps":{"alert":"now or never"}}"#)
            let kept = try await provider.push(token: token, topic: "com.example.deviceless", json: #"{"aps":{"alert":"kept"}}"#)
            try await provider.close()
            for answer in [now, kept] {
                let id = try #require(answer.header("apns-unique-id"))
                let entry = try await emulator.adminObject("/api/v1/notifications/\(id)")
                #expect(entry["status"] as? String == "delivered", "\(entry)")
                #expect((entry["presentation"] as? [String: Any])?["shown"] as? Bool == true, "\(entry)")
            }
            #expect(try await emulator.queued(token).isEmpty)
        }
    }
}

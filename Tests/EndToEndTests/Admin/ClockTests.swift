import APNsCore
import APNsInspection
import APNsTestSupport
import Foundation
import Testing

/// The emulator's clock, moved through the admin API: expiry follows it, provider tokens do not.
@Suite("The emulator clock")
struct ClockTests {
    static let topic = "com.example.clock"

    @Test("GET shows the clock; advance and set move it forward only; reset returns it to real time")
    func moves() async throws {
        try await withEmulator { emulator in
            let start = try await emulator.adminObject("/api/v1/clock")
            #expect(start["offsetMs"] as? Int == 0 && start["offset"] as? String == "0s")

            let moved = try await emulator.adminObject("/api/v1/clock", method: "POST", body: #"{"advance": "90m"}"#)
            #expect(moved["offsetMs"] as? Int == 5_400_000 && moved["offset"] as? String == "1h30m")
            let nowText = try #require(moved["now"] as? String)
            let realText = try #require(moved["real"] as? String)
            let now = try #require(Timestamp.parse(nowText))
            let real = try #require(Timestamp.parse(realText))
            #expect(now - real >= 5_400_000 - 1000 && now - real <= 5_400_000 + 1000)

            // set: to a later time; an earlier one is refused.
            let later = Timestamp.rfc3339(millis: now + 86_400_000)
            let set = try await emulator.adminObject("/api/v1/clock", method: "POST", body: #"{"set": "\#(later)"}"#)
            #expect((set["offsetMs"] as? Int ?? 0) > 86_000_000)
            let back = try await emulator.admin("/api/v1/clock", method: "POST", body: #"{"set": "2020-01-01T00:00:00Z"}"#)
            #expect(back.status == 409 && back.text.contains("only moves forward"))
            for body in [
                #"{"advance": "-5m"}"#, #"{"advance": "soon"}"#, #"{"advance": "1m", "set": "2030-01-01T00:00:00Z"}"#,
                #"{"warp": 1}"#, "{}",
            ] {
                #expect(try await emulator.admin("/api/v1/clock", method: "POST", body: body).status == 400, "\(body)")
            }
            #expect(try await emulator.admin("/api/v1/clock", method: "DELETE").status == 405)

            _ = try await emulator.adminObject("/api/v1/reset", method: "POST")
            #expect(try await emulator.adminObject("/api/v1/clock")["offsetMs"] as? Int == 0)
        }
    }

    @Test("the clock goes no further than 9999-12-31: a move past it is 400 naming the limit, and nothing moves")
    func yearLimit() async throws {
        try await withEmulator { emulator in
            let far = try await emulator.admin("/api/v1/clock", method: "POST", body: #"{"advance": "3000000d"}"#)
            #expect(far.status == 400 && far.text.contains("9999-12-31T00:00:00.000Z"), "\(far.text)")
            let late = try await emulator.admin("/api/v1/clock", method: "POST", body: #"{"set": "9999-12-31T00:00:01Z"}"#)
            #expect(late.status == 400 && late.text.contains("the latest the clock moves to"), "\(late.text)")
            #expect(try await emulator.adminObject("/api/v1/clock")["offsetMs"] as? Int == 0, "a refused move moves nothing")
            let edge = try await emulator.adminObject("/api/v1/clock", method: "POST", body: #"{"set": "9999-12-30T00:00:00Z"}"#)
            #expect((edge["now"] as? String)?.hasPrefix("9999-12-30T00:00:0") == true)
        }
    }

    @Test(
        "apns-expiration follows the moved clock: an hour ahead, a push that expires in 30 minutes is expired and never delivered"
    )
    func expiryFollowsTheClock() async throws {
        try await withEmulator(configure: { $0.storagePolicy = .all }) { emulator in
            let token = try await emulator.offlineToken(topic: Self.topic, device: "sleeper")
            let provider = try await emulator.http2Client()
            let expiration = Int64(Date().timeIntervalSince1970) + 1800
            let keeps = try await provider.push(token: token.hex, topic: Self.topic, json: #"{"n":"keeps"}"#)
            let expires = try await provider.push(
                token: token.hex, headers: [("apns-topic", Self.topic), ("apns-expiration", String(expiration))],
                json: #"{"n":"expires"}"#)
            let expiredID = try #require(expires.header("apns-unique-id"))
            #expect(try await emulator.queued(token.hex).count == 2)

            _ = try await emulator.adminObject("/api/v1/clock", method: "POST", body: #"{"advance": "1h"}"#)
            // The move sweeps at once: the journal says expired, and the queue keeps only the other.
            let item = try await emulator.adminObject("/api/v1/notifications/\(expiredID)")
            #expect(item["status"] as? String == "expired")
            let keptID = try #require(keeps.header("apns-unique-id"))
            #expect(try await emulator.queued(token.hex).compactMap { $0["uniqueId"] as? String } == [keptID])
            let device = try await emulator.device("sleeper")
            _ = try await device.resume([token])
            #expect(String(decoding: try await device.next().payload, as: UTF8.self).contains("keeps"))
            #expect(try await emulator.expectNothingMoreDelivered(to: device, token: token, topic: Self.topic) == nil)

            // A push whose expiration is in real time's future but the clock's past is not stored.
            let stale = Int64(Date().timeIntervalSince1970) + 600
            try await device.close()
            // Only once the emulator has seen the device go: to a connected device the push would go at once.
            let gone = try await eventually(timeout: .seconds(60)) {
                let devices = try await emulator.admin("/api/v1/devices").json() as? [[String: Any]] ?? []
                return devices.first { $0["token"] as? String == token.hex }?["connected"] as? Bool == false
            }
            #expect(gone, "the emulator saw the device disconnect")
            let late = try await provider.push(
                token: token.hex, headers: [("apns-topic", Self.topic), ("apns-expiration", String(stale))])
            #expect(late.status == 200)
            let lateID = try #require(late.header("apns-unique-id"))
            let lateItem = try await emulator.adminObject("/api/v1/notifications/\(lateID)")
            #expect(lateItem["status"] as? String == "discarded")
        }
    }
}

import APNsCore
import APNsServer
import APNsTestSupport
import APNsWire
import Foundation
import Testing

/// The feedback service and its admin view, over real TLS sockets.
@Suite("Feedback service")
struct FeedbackServiceTests {
    static let topic = "com.example.app"

    @Test("unregistered tokens are sent once as tuples with their time, then cleared; the admin API only looks")
    func readOnce() async throws {
        let clock = ManualClock()
        try await withEmulator(configure: { $0.clock = clock.function }) { emulator in
            #expect(try await emulator.feedbackTuples().isEmpty)

            let first = try await emulator.offlineToken(topic: Self.topic, device: "one")
            let second = try await emulator.offlineToken(topic: "com.example.other", device: "two")
            #expect(try await emulator.admin("/api/v1/devices/\(first.hex)/unregister", method: "POST").status == 200)
            clock.advance(seconds: 60)
            #expect(try await emulator.admin("/api/v1/devices/\(second.hex)/unregister", method: "POST").status == 200)

            for _ in 0..<2 {
                let pending = try await emulator.admin("/api/v1/feedback")
                #expect(pending.status == 200)
                let items = try #require(try pending.json() as? [[String: Any]])
                #expect(Set(items.compactMap { $0["token"] as? String }) == [first.hex, second.hex])
                #expect(Set(items.compactMap { $0["topic"] as? String }) == [Self.topic, "com.example.other"])
            }

            let seconds = UInt32(clock.now / 1000)
            let tuples = try await emulator.feedbackTuples()
            #expect(
                Set(tuples) == [
                    FeedbackTuple(time: seconds - 60, token: first.bytes), FeedbackTuple(time: seconds, token: second.bytes),
                ])
            #expect(try await emulator.feedbackTuples().isEmpty)
            let after = try await emulator.admin("/api/v1/feedback")
            #expect((try after.json() as? [[String: Any]])?.isEmpty == true)
        }
    }

    @Test("a token that registers again is valid again and no longer reported")
    func reRegistered() async throws {
        try await withEmulator { emulator in
            let token = try await emulator.offlineToken(topic: Self.topic)
            #expect(try await emulator.admin("/api/v1/devices/\(token.hex)/unregister", method: "POST").status == 200)
            let provider = try await emulator.http2Client()
            #expect(try await provider.push(token: token.hex, topic: Self.topic, json: "{}").status == 410)

            let body = #"{"topic":"\#(Self.topic)","token":"\#(token.hex)"}"#
            #expect(try await emulator.admin("/api/v1/devices", method: "POST", body: body).status == 201)
            #expect(try await emulator.admin("/api/v1/devices", method: "POST", body: body).status == 409)
            #expect(try await emulator.feedbackTuples().isEmpty)
            #expect(try await provider.push(token: token.hex, topic: Self.topic, json: "{}").status == 200)
            try await provider.close()
        }
    }
}

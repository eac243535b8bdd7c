import APNsCore
import APNsDeviceClient
import APNsTestSupport
import Foundation
import Testing

/// Broadcast push: the app's capability and the channel limit, authentication by token and
/// certificate, and what connected and returning devices hear.
extension BroadcastTests {
    @Test(
        "turning the capability off deletes the bundle's channels and refuses them with FeatureNotEnabled; the 10,001st channel is refused"
    )
    func capabilityAndLimit() async throws {
        try await withEmulator(configure: { $0.durability = .relaxed }) { emulator in
            let client = try await emulator.http2Client()
            let id = try await Self.channel(client)
            let off = try await emulator.adminObject(
                "/api/v1/apps/\(Self.bundle)/broadcast", method: "PUT", body: #"{"enabled": false}"#)
            #expect(off["deletedChannels"] as? Int == 1)
            #expect(try await Self.create(client).reason == "FeatureNotEnabled")
            #expect(
                try await Self.publish(client, id, LiveActivityTests.update(LiveActivityTests.now, "x")).reason
                    == "FeatureNotEnabled")
            _ = try await emulator.adminObject(
                "/api/v1/apps/\(Self.bundle)/broadcast", method: "PUT", body: #"{"enabled": true}"#)
            #expect(
                try await Self.publish(client, id, LiveActivityTests.update(LiveActivityTests.now, "x")).reason
                    == "ChannelNotRegistered")
            // Apple: up to 10,000 channels per bundle in each environment.
            for batch in 0..<100 {
                let answers = try await withThrowingTaskGroup(of: Int.self) { group in
                    for _ in 0..<100 { group.addTask { try await Self.create(client).status } }
                    return try await group.reduce(into: [Int]()) { $0.append($1) }
                }
                #expect(answers.allSatisfy { $0 == 201 }, "batch \(batch)")
            }
            let refused = try await Self.create(client)
            #expect(refused.status == 400 && refused.reason == "CannotCreateChannelConfig")
            let listed = try await client.send(method: "GET", path: "/1/apps/\(Self.bundle)/all-channels")
            #expect((listed.json?["channels"] as? [String])?.count == 10_000)
        }
    }

    @Test("token and certificate authentication: a key or certificate that does not cover the bundle gets TopicMismatch")
    func authentication() async throws {
        try await withEmulator(configure: { $0.auth = .strict }) { emulator in
            let key = try emulator.registerKey(topics: [Self.bundle])
            let other = try emulator.registerKey(keyID: "KEY7654321", topics: ["com.example.other"])
            let client = try await emulator.http2Client()
            let missing = try await Self.create(client)
            #expect(missing.status == 403 && missing.reason == "MissingProviderToken")
            let allowed = try await Self.create(
                client, headers: [("authorization", try key.authorization(issuedAt: emulator.nowSeconds))])
            #expect(allowed.status == 201)
            let otherClient = try await emulator.http2Client()
            let mismatch = try await Self.create(
                otherClient, headers: [("authorization", try other.authorization(issuedAt: emulator.nowSeconds))])
            #expect(mismatch.status == 403 && mismatch.reason == "TopicMismatch")
            let certified = try await emulator.http2Client(identity: try emulator.providerIdentity(uid: Self.bundle))
            #expect(try await Self.create(certified).status == 201)
            let stranger = try await emulator.http2Client(identity: try emulator.providerIdentity(uid: "com.example.other"))
            let refused = try await Self.create(stranger)
            #expect(refused.status == 403 && refused.reason == "TopicMismatch")
        }
    }

    @Test("a connected device hears the broadcast's change at once; a device that was away finds it applied when it comes back")
    func devices() async throws {
        try await withEmulator { emulator in
            let client = try await emulator.http2Client()
            let id = try await Self.channel(client)
            var subscribers: [DeviceClient] = []
            for name in ["phone-a", "phone-b"] {
                let device = try await emulator.device(name)
                _ = try await device.register(topic: Self.bundle)
                _ = try await device.declareActivityTypes(topic: Self.bundle, document: Array(LiveActivityTests.types.utf8))
                let request =
                    #"{"attributes-type": "Delivery", "attributes": {"order": 3}, "content-state": {"status": "new"}, "pushType": {"channel": "\#(id)"}}"#
                _ = try await device.startActivity(topic: Self.bundle, document: Array(request.utf8))
                subscribers.append(device)
            }
            try await subscribers[1].close()
            #expect(
                try await Self.publish(client, id, LiveActivityTests.update(LiveActivityTests.now + 10, "goal")).status == 200)
            let heard = try await subscribers[0].nextEvent {
                if case .activity(_, "updated", _, _) = $0 { return true } else { return false }
            }
            if case .activity(_, _, _, let activity) = heard {
                #expect(activity.contentState == .object(["status": .string("goal")]))
            }
            let back = try await emulator.device("phone-b")
            #expect(try await back.activities(topic: Self.bundle).first?.contentState == .object(["status": .string("goal")]))
            try await subscribers[0].close()
            try await back.close()
        }
    }
}

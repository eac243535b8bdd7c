import APNsCore
import APNsDeviceClient
import APNsServer
import APNsTestSupport
import APNsWire
import Foundation
import NIOCore
import Testing

/// Store and forward to emulated devices, over real TLS sockets.
@Suite("Device delivery")
struct DeviceDeliveryTests {
    static let topic = "com.example.app"

    func push(
        _ client: HTTP2TestClient, _ token: DeviceToken, _ n: Int, headers: [(String, String)] = []
    ) async throws -> HTTP2TestClient.Response {
        try await client.push(token: token.hex, topic: Self.topic, headers: headers, json: #"{"n":\#(n)}"#)
    }

    func number(_ notification: APNsCore.Notification) -> Int? {
        ((try? JSONSerialization.jsonObject(with: Data(notification.payload))) as? [String: Any])?["n"] as? Int
    }

    @Test("pushed while offline, received in order on reconnect; acknowledged ones leave the queue")
    func offlineThenReconnect() async throws {
        try await withEmulator(configure: { $0.storagePolicy = .all }) { emulator in
            let token = try await emulator.offlineToken(topic: Self.topic)
            #expect(token.bytes.count == 32)

            let provider = try await emulator.http2Client()
            for n in 0..<5 { #expect(try await self.push(provider, token, n).status == 200) }

            let again = try await emulator.device("phone")
            #expect(try await again.resume([token]) == [ResumeResult(token: token, status: .resumed)])
            var received: [Int] = []
            for _ in 0..<5 {
                let notification = try await again.next()
                #expect(notification.token == token)
                #expect(notification.topic == Self.topic)
                received.append(try #require(self.number(notification)))
                try await again.acknowledge(notification.uniqueID)
            }
            #expect(received == [0, 1, 2, 3, 4])
            #expect(await eventually { (try? await emulator.queued(token.hex).isEmpty) == true })
        }
    }

    @Test("pushed while online, received at once with every field")
    func online() async throws {
        try await withEmulator { emulator in
            let device = try await emulator.device()
            let token = try await device.register(topic: Self.topic)
            let provider = try await emulator.http2Client()
            let response = try await provider.push(
                token: token.hex,
                headers: [
                    ("apns-topic", Self.topic), ("apns-push-type", "background"), ("apns-priority", "5"),
                    ("apns-collapse-id", "c"),
                ],
                json: #"{"aps":{"content-available":1}}"#
            )
            #expect(response.status == 200)
            let notification = try await device.next()
            #expect(notification.apnsID == response.header("apns-id"))
            #expect(notification.uniqueID == response.header("apns-unique-id"))
            #expect(notification.pushType == .background)
            #expect(notification.priority == .conservePower)
            #expect(notification.collapseID == "c")
            #expect(notification.payload == Array(#"{"aps":{"content-available":1}}"#.utf8))
        }
    }

    @Test("dropped before the ack, delivered again after reconnecting")
    func redeliveredWhenNotAcknowledged() async throws {
        try await withEmulator { emulator in
            let device = try await emulator.device("phone")
            let token = try await device.register(topic: Self.topic)
            let provider = try await emulator.http2Client()
            _ = try await self.push(provider, token, 7)
            let first = try await device.next()
            try await device.close()

            let again = try await emulator.device("phone")
            _ = try await again.resume([token])
            let second = try await again.next()
            #expect(second.uniqueID == first.uniqueID)
            try await again.acknowledge(second.uniqueID)
            #expect(await eventually { (try? await emulator.queued(token.hex).isEmpty) == true })
            try await again.close()

            let third = try await emulator.device("phone")
            _ = try await third.resume([token])
            #expect(try await emulator.expectNothingMoreDelivered(to: third, token: token, topic: Self.topic) == nil)
        }
    }

    @Test("a queue survives an emulator restart and is delivered after it")
    func restart() async throws {
        let directory = try TemporaryDirectory()
        let emulator = try await RunningEmulator.start(directory: directory) { $0.storagePolicy = .all }
        let device = try await emulator.device()
        let token = try await device.register(topic: Self.topic)
        try await device.close()
        let provider = try await emulator.http2Client()
        _ = try await self.push(provider, token, 1)
        _ = try await self.push(provider, token, 2)
        try await emulator.stop()

        let restarted = try await RunningEmulator.start(directory: directory) { $0.storagePolicy = .all }
        let again = try await restarted.device()
        #expect(try await again.resume([token]).first?.status == .resumed)
        #expect(self.number(try await again.next()) == 1)
        #expect(self.number(try await again.next()) == 2)
        try await restarted.stop()
    }

    @Test("an expired notification is never delivered")
    func expired() async throws {
        let clock = ManualClock(millis: Int64(Date().timeIntervalSince1970 * 1000))
        try await withEmulator(configure: { $0.clock = clock.function }) { emulator in
            let token = try await emulator.offlineToken(topic: Self.topic)
            let provider = try await emulator.http2Client()
            let expiration = clock.now / 1000 + 60
            _ = try await self.push(provider, token, 1, headers: [("apns-expiration", String(expiration))])
            _ = try await self.push(provider, token, 2)
            clock.advance(seconds: 61)

            let again = try await emulator.device("phone")
            _ = try await again.resume([token])
            #expect(self.number(try await again.next()) == 2)
            // The sweeper also takes it out of the queue.
            #expect(await eventually { (try? await emulator.queued(token.hex).count) == 1 })
            #expect(try await emulator.expectNothingMoreDelivered(to: again, token: token, topic: Self.topic) == nil)
        }
    }

    @Test("expiration 0: delivered to a connected device, discarded for an offline one")
    func expirationZero() async throws {
        try await withEmulator { emulator in
            let online = try await emulator.device()
            let onlineToken = try await online.register(topic: Self.topic)
            let offlineToken = try await emulator.offlineToken(topic: Self.topic, device: "offline")

            let provider = try await emulator.http2Client()
            #expect(try await self.push(provider, onlineToken, 1, headers: [("apns-expiration", "0")]).status == 200)
            #expect(self.number(try await online.next()) == 1)
            #expect(try await self.push(provider, offlineToken, 2, headers: [("apns-expiration", "0")]).status == 200)
            #expect(try await emulator.queued(offlineToken.hex).isEmpty)
            let back = try await emulator.device("offline")
            _ = try await back.resume([offlineToken])
            #expect(try await emulator.expectNothingMoreDelivered(to: back, token: offlineToken, topic: Self.topic) == nil)
        }
    }

    @Test("a queued notification with the same topic and collapse id is replaced")
    func collapse() async throws {
        try await withEmulator(configure: { $0.storagePolicy = .all }) { emulator in
            let token = try await emulator.offlineToken(topic: Self.topic)
            let provider = try await emulator.http2Client()
            _ = try await self.push(provider, token, 1, headers: [("apns-collapse-id", "score")])
            _ = try await self.push(provider, token, 2)
            _ = try await self.push(provider, token, 3, headers: [("apns-collapse-id", "score")])
            let again = try await emulator.device("phone")
            _ = try await again.resume([token])
            #expect(self.number(try await again.next()) == 2)
            #expect(self.number(try await again.next()) == 3)
            #expect(try await emulator.expectNothingMoreDelivered(to: again, token: token, topic: Self.topic) == nil)
        }
    }

    @Test("the latest policy keeps only the most recent notification per topic for an offline device")
    func latestPolicy() async throws {
        try await withEmulator(configure: { $0.storagePolicy = .latest }) { emulator in
            let token = try await emulator.offlineToken(topic: Self.topic)
            let provider = try await emulator.http2Client()
            for n in 1...3 { _ = try await self.push(provider, token, n) }
            let again = try await emulator.device("phone")
            _ = try await again.resume([token])
            #expect(self.number(try await again.next()) == 3)
            #expect(try await emulator.expectNothingMoreDelivered(to: again, token: token, topic: Self.topic) == nil)
        }
    }

    @Test("after unregister, pushes get 410 Unregistered with the unregistration time; resume reports it")
    func unregister() async throws {
        try await withEmulator { emulator in
            let device = try await emulator.device("phone")
            let token = try await device.register(topic: Self.topic)
            let provider = try await emulator.http2Client()
            _ = try await self.push(provider, token, 1)
            _ = try await device.next()
            let timestamp = try await device.unregister(topic: Self.topic)
            let response = try await self.push(provider, token, 2)
            #expect(response.status == 410)
            #expect(response.reason == "Unregistered")
            #expect(response.timestamp == timestamp)
            #expect(try await emulator.queued(token.hex).isEmpty)
            let again = try await emulator.device("phone")
            #expect(try await again.resume([token]).first?.status == .unregistered)
        }
    }

    @Test("registered mode refuses tokens the emulator did not issue", .tags(.policy))
    func registeredMode() async throws {
        try await withEmulator(configure: { $0.tokenPolicy = .registered }) { emulator in
            let provider = try await emulator.http2Client()
            let stranger = DeviceToken(bytes: [UInt8](repeating: 3, count: 32))!
            let refused = try await self.push(provider, stranger, 1)
            #expect(refused.status == 400)
            #expect(refused.reason == "BadDeviceToken")
            // The detail says which of BadDeviceToken's causes this is (issue 70).
            #expect(refused.header("apns-emulator-detail")?.contains("did not issue the token") == true, "\(refused.headers)")
            let device = try await emulator.device()
            let token = try await device.register(topic: Self.topic)
            #expect(try await self.push(provider, token, 2).status == 200)
            let wrongTopic = try await provider.push(token: token.hex, topic: "com.example.other")
            #expect(wrongTopic.reason == "DeviceTokenNotForTopic")
            #expect(try await device.resume([stranger]).first?.status == .unknown)
        }
    }

    @Test("a PushKit token belongs to <bundle>.voip: voip pushes there arrive, other topics and push types are refused")
    func voipToken() async throws {
        // PyAPNs2 #134, pushok #97: a token is for one topic; AndrewBarba/apns2 #23: a .voip topic takes only voip.
        try await withEmulator { emulator in
            let device = try await emulator.device("caller")
            let regular = try await device.register(topic: Self.topic)
            let voip = try await device.register(topic: Self.topic + ".voip")
            #expect(voip != regular)
            let provider = try await emulator.http2Client()
            let call = try await provider.push(
                token: voip.hex, headers: [("apns-topic", Self.topic + ".voip"), ("apns-push-type", "voip")], json: #"{"n":1}"#
            )
            #expect(call.status == 200)
            let received = try await device.next()
            #expect(received.token == voip)
            #expect(received.topic == Self.topic + ".voip")
            #expect(received.pushType == .voip)
            let wrongTopic = try await provider.push(
                token: voip.hex, headers: [("apns-topic", Self.topic), ("apns-push-type", "voip")])
            #expect(wrongTopic.status == 400)
            #expect(wrongTopic.reason == "DeviceTokenNotForTopic")
            let regularToVoip = try await provider.push(
                token: regular.hex, headers: [("apns-topic", Self.topic + ".voip"), ("apns-push-type", "voip")])
            #expect(regularToVoip.reason == "DeviceTokenNotForTopic")
            let alertToVoip = try await provider.push(token: voip.hex, topic: Self.topic + ".voip")
            #expect(alertToVoip.status == 400)
            #expect(alertToVoip.reason == "InvalidPushType")
        }
    }

    @Test("protocol errors get an error frame and close the connection; nothing queued is lost")
    func protocolErrors() async throws {
        try await withEmulator { emulator in
            let device = try await emulator.device("phone")
            let token = try await device.register(topic: Self.topic)
            let provider = try await emulator.http2Client()
            _ = try await self.push(provider, token, 1)
            _ = try await device.next()
            // Unregistering a topic this connection holds no token for is refused.
            await #expect {
                _ = try await device.unregister(topic: "com.example.other")
            } throws: { error in
                guard let error = error as? DeviceClientError, error.code == .refused else { return false }
                return error.serverCode == .invalidArgument
            }
            // The unacknowledged notification is still there for the next connection.
            let again = try await emulator.device("phone")
            _ = try await again.resume([token])
            #expect(self.number(try await again.next()) == 1)
        }
    }
}

extension Tag {
    @Tag static var policy: Self
}

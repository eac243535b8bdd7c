import APNsCore
import APNsTestSupport
import APNsWire
import Foundation
import Testing

/// Apple serves channel management on `api-manage-broadcast.sandbox.push.apple.com:2195` and
/// `api-manage-broadcast.push.apple.com:2196` (Apple, "Sending channel management requests to
/// APNs"; ../shared/APNS-REFERENCE.md §6), the ports that are the binary gateway and the feedback
/// service here: a client that offers ALPN h2 gets channel management, one without ALPN the binary
/// protocol. What reaches the wrong door is refused, logged and journaled with its port and where
/// it belongs (issue 41).
@Suite("Channel management on the gateway and feedback ports")
struct ChannelManagementPortsTests {
    static let bundle = BroadcastTests.bundle
    static let channelsPath = BroadcastTests.channelsPath

    @Test("ALPN h2 on 2195 and 2196: create, read, list and delete a channel; a push there is sent to the provider port")
    func alpn() async throws {
        try await withEmulator { emulator in
            for port in [emulator.gatewayPort, emulator.feedbackPort] {
                let client = try await HTTP2TestClient.connect(host: "127.0.0.1", port: port, caPath: emulator.caPath)
                let created = try await BroadcastTests.create(client)
                #expect(created.status == 201, "port \(port): \(created.status)")
                let id = try #require(created.header("apns-channel-id"))
                let read = try await client.send(method: "GET", path: Self.channelsPath, headers: [("apns-channel-id", id)])
                #expect(read.status == 200 && read.json?["message-storage-policy"] as? Int == 1)
                let listed = try await client.send(method: "GET", path: "/1/apps/\(Self.bundle)/all-channels")
                #expect((listed.json?["channels"] as? [String])?.contains(id) == true)
                let deleted = try await client.send(method: "DELETE", path: Self.channelsPath, headers: [("apns-channel-id", id)])
                #expect(deleted.status == 204)
                let push = try await client.push(token: String(repeating: "ab", count: 32))
                #expect(push.status == 404 && push.reason == "BadPath")
                let detail = push.header("apns-emulator-detail") ?? ""
                #expect(detail.contains("port \(port)") && detail.contains("port \(emulator.http2Port)"), "\(detail)")
                try await client.close()
            }
            let refused = try await emulator.journal("interface=http2&status=rejected")
            #expect(refused.count == 2)
            #expect(Set(refused.compactMap { $0["port"] as? Int }) == [emulator.gatewayPort, emulator.feedbackPort])
            let managed = try await emulator.journal("interface=broadcast")
            #expect(
                managed.filter { $0["operation"] as? String == "create" }.compactMap { $0["port"] as? Int }.sorted()
                    == [emulator.gatewayPort, emulator.feedbackPort].sorted())
            // The binary protocols on the same ports are unchanged.
            let token = try await emulator.offlineToken(topic: Self.bundle, device: "phone")
            var stream = BinaryStream()
            stream.frame(token: token, n: 1, identifier: 1)
            stream.frame(BinaryPushRequest(command: 2, identifier: 2, token: token.bytes, payload: []))
            #expect(try await emulator.gateway(stream) == BinaryErrorResponse(status: .missingPayload, identifier: 2))
            #expect(try await emulator.queued(token.hex).count == 1)
            #expect(try await emulator.feedbackTuples().isEmpty)
        }
    }

    @Test("an HTTP/2 preface without ALPN on the gateway: status 128, logged and journaled with where HTTP/2 belongs")
    func prefaceWithoutALPN() async throws {
        try await withEmulator { emulator in
            let preface = Array("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".utf8) + [0, 0, 0, 4, 0, 0, 0, 0, 0]
            let received = try await RawTLSClient.exchange(
                host: "127.0.0.1", port: emulator.gatewayPort, caPath: emulator.caPath, sending: preface)
            #expect(received == [8, 128, 0, 0, 0, 0])
            let entry = try #require(try await emulator.journal("interface=binary").first)
            #expect(entry["status"] as? String == "rejected" && entry["statusByte"] as? Int == 128)
            #expect(entry["port"] as? Int == emulator.gatewayPort)
            let detail = entry["detail"] as? String ?? ""
            #expect(detail.contains("HTTP/2 connection preface") && detail.contains("ALPN h2"), "\(detail)")
            #expect(
                detail.contains("port \(emulator.http2Port)") && detail.contains("port \(emulator.channelsPort)"), "\(detail)")
        }
    }

    @Test("binary commands on the HTTP/2 provider port: closed, logged and journaled with the gateway's port")
    func binaryOnProviderPort() async throws {
        try await withEmulator { emulator in
            var stream = BinaryStream()
            stream.frame(token: try #require(DeviceToken(bytes: Array(repeating: 1, count: 32))), n: 1, identifier: 1)
            _ = try await RawTLSClient.exchange(
                host: "127.0.0.1", port: emulator.http2Port, caPath: emulator.caPath, sending: stream.bytes)
            let entry = try #require(try await emulator.journal("interface=http2").first)
            #expect(entry["status"] as? String == "rejected" && entry["port"] as? Int == emulator.http2Port)
            let detail = entry["detail"] as? String ?? ""
            #expect(detail.contains("binary command 2") && detail.contains("port \(emulator.gatewayPort)"), "\(detail)")
            let http1 = Array("GET /api/v1/devices HTTP/1.1\r\nHost: localhost\r\n\r\n".utf8)
            _ = try await RawTLSClient.exchange(
                host: "127.0.0.1", port: emulator.http2Port, caPath: emulator.caPath, sending: http1)
            let second = try await emulator.journal("interface=http2")
            #expect(second.count == 2)
            #expect(second.contains { ($0["detail"] as? String ?? "").contains("port \(emulator.adminPort)") })
        }
    }

    @Test("strict: a binary client without a certificate is refused, journaled with why; a token client gets channels by ALPN")
    func strict() async throws {
        try await withEmulator(configure: { $0.auth = .strict }) { emulator in
            var stream = BinaryStream()
            stream.frame(token: try #require(DeviceToken(bytes: Array(repeating: 1, count: 32))), n: 1, identifier: 1)
            // Closed without a byte; a server that kept the connection open would time it out, which throws.
            let session = try await emulator.gatewaySession(stream)
            #expect(session.received.isEmpty, "\(session)")
            let entry = try #require(try await emulator.journal("interface=binary").first)
            #expect(entry["port"] as? Int == emulator.gatewayPort && entry["status"] as? String == "rejected")
            let detail = entry["detail"] as? String ?? ""
            #expect(detail.contains("no client certificate") && detail.contains("provider token needs HTTP/2"), "\(detail)")
            #expect(detail.contains("port \(emulator.http2Port)"), "\(detail)")

            let key = try emulator.registerKey(topics: [Self.bundle])
            let client = try await HTTP2TestClient.connect(host: "127.0.0.1", port: emulator.gatewayPort, caPath: emulator.caPath)
            #expect(try await BroadcastTests.create(client).reason == "MissingProviderToken")
            let other = try await HTTP2TestClient.connect(host: "127.0.0.1", port: emulator.gatewayPort, caPath: emulator.caPath)
            let created = try await BroadcastTests.create(
                other, headers: [("authorization", try key.authorization(issuedAt: emulator.nowSeconds))])
            #expect(created.status == 201)
            let certified = try await HTTP2TestClient.connect(
                host: "127.0.0.1", port: emulator.feedbackPort, caPath: emulator.caPath,
                identity: try emulator.providerIdentity(uid: Self.bundle))
            #expect(try await BroadcastTests.create(certified).status == 201)
        }
    }

    @Test("an HTTP/2 client at the device port: closed, logged and journaled with where pushes belong")
    func providerAtDevicePort() async throws {
        try await withEmulator { emulator in
            let preface = Array("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".utf8) + [0, 0, 0, 4, 0, 0, 0, 0, 0]
            _ = try await RawTLSClient.exchange(
                host: "127.0.0.1", port: emulator.devicePort, caPath: emulator.caPath, sending: preface)
            let entry = try #require(try await emulator.journal("status=rejected").first)
            #expect(entry["port"] as? Int == emulator.devicePort)
            let detail = entry["detail"] as? String ?? ""
            #expect(detail.contains("device protocol") && detail.contains("HTTP/2 connection preface"), "\(detail)")
            #expect(detail.contains("port \(emulator.http2Port)"), "\(detail)")
        }
    }
}

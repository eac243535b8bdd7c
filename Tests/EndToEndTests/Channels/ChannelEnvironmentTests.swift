import APNsTestSupport
import Foundation
import Testing

/// A broadcast channel belongs to the environment it was created in: Apple keeps channels per
/// environment (channel management at api-manage-broadcast.sandbox.push.apple.com and
/// api-manage-broadcast.push.apple.com; "Sending channel management requests to APNs": at most
/// 10,000 channels per bundle in each environment), so the other environment's requests and
/// broadcasts do not find it: 400 ChannelNotRegistered, here with a detail saying where it was
/// created.
@Suite("Broadcast channels: each in its environment")
struct ChannelEnvironmentTests {
    typealias Broadcast = BroadcastTests

    static func client(_ emulator: RunningEmulator, port: Int) async throws -> HTTP2TestClient {
        try await HTTP2TestClient.connect(host: "127.0.0.1", port: port, caPath: emulator.caPath)
    }

    @Test(
        "created at the sandbox: read, listed and broadcast to there; at production ChannelNotRegistered saying where it was created"
    )
    func channelStaysInItsEnvironment() async throws {
        try await withEmulator { emulator in
            let sandbox = try await Self.client(emulator, port: emulator.http2Port)
            let production = try await Self.client(emulator, port: emulator.productionHTTP2Port)
            let id = try await Broadcast.channel(sandbox)
            let update =
                #"{"aps": {"event": "update", "timestamp": \#(LiveActivityTests.now), "content-state": {"status": "x"}}}"#

            let elsewhere = try await Broadcast.publish(production, id, update)
            #expect(
                elsewhere.status == 400 && elsewhere.reason == "ChannelNotRegistered",
                "\(elsewhere.status) \(String(decoding: elsewhere.body, as: UTF8.self))")
            let read = try await production.send(
                method: "GET", path: Broadcast.channelsPath, headers: [("apns-channel-id", id)])
            #expect(
                read.status == 400 && read.reason == "ChannelNotRegistered",
                "\(read.status) \(String(decoding: read.body, as: UTF8.self))")
            let listed = try await production.send(method: "GET", path: "/1/apps/\(Broadcast.bundle)/all-channels")
            #expect(listed.status == 200 && !String(decoding: listed.body, as: UTF8.self).contains(id))
            let atSandbox = try await Broadcast.publish(sandbox, id, update)
            #expect(atSandbox.status == 200, "\(atSandbox.status) \(String(decoding: atSandbox.body, as: UTF8.self))")
            #expect(
                String(
                    decoding: try await sandbox.send(method: "GET", path: "/1/apps/\(Broadcast.bundle)/all-channels").body,
                    as: UTF8.self
                ).contains(id))

            // The journal and the channel list say why and where.
            let refused = try await emulator.journal("interface=broadcast&status=rejected")
            let detail = refused.compactMap { $0["detail"] as? String }.first ?? ""
            #expect(
                detail.contains("was created in the sandbox (api-manage-broadcast.sandbox.push.apple.com)")
                    && detail.contains("not in production"), "\(refused.map { $0["detail"] ?? "" })")
            let channels = try #require(try await emulator.adminObject("/api/v1/channels")["items"] as? [[String: Any]])
            #expect(channels.first { $0["id"] as? String == id }?["environment"] as? String == "development", "\(channels)")
        }
    }

    @Test("on the channels port, :authority api-manage-broadcast.push.apple.com creates a production channel")
    func managementHostNamesTheEnvironment() async throws {
        try await withEmulator { emulator in
            let management = try await Self.client(emulator, port: emulator.channelsPort)
            let created = try await Broadcast.create(
                management, headers: [(":authority", "api-manage-broadcast.push.apple.com:2196")])
            #expect(created.status == 201)
            let id = try #require(created.header("apns-channel-id"))
            let production = try await Self.client(emulator, port: emulator.productionHTTP2Port)
            let update =
                #"{"aps": {"event": "update", "timestamp": \#(LiveActivityTests.now), "content-state": {"status": "y"}}}"#
            #expect(try await Broadcast.publish(production, id, update).status == 200)
            let sandbox = try await Self.client(emulator, port: emulator.http2Port)
            #expect(try await Broadcast.publish(sandbox, id, update).reason == "ChannelNotRegistered")
        }
    }
}

import APNsCore
import APNsServer
import APNsStore
import APNsTestSupport
import Foundation
import Logging
import Testing

/// Live Activities across restarts: activities and tokens kept, a rotated token unregistered,
/// and a push accepted before a stop applied at the next start.
extension LiveActivityTests {
    @Test("a restart keeps activities and tokens; a rotated token answers 410 Unregistered")
    func restartAndRotation() async throws {
        let directory = try TemporaryDirectory()
        var emulator = try await RunningEmulator.start(directory: directory)
        let (token, pushToStart) = try await Self.app(emulator)
        var provider = try await emulator.http2Client()
        let id = try #require(
            try await Self.outcome(emulator, try await Self.send(provider, pushToStart, Self.start()))["id"] as? String)
        let updateToken = try #require(try await emulator.adminObject("/api/v1/activities/\(id)")["updateToken"] as? String)
        try await emulator.stop()

        emulator = try await RunningEmulator.start(directory: directory)
        provider = try await emulator.http2Client()
        #expect(try await emulator.adminObject("/api/v1/devices/\(token)/app")["pushToStartToken"] as? String == pushToStart)
        #expect(
            try await Self.outcome(
                emulator, try await Self.send(provider, updateToken, Self.update(Self.now + 10, "after restart")))["outcome"]
                as? String == "applied")
        let rotated = try await emulator.adminObject("/api/v1/activities/\(id)/rotate-token", method: "POST")
        #expect(rotated["replaced"] as? String == updateToken)
        let newToken = try #require(rotated["token"] as? String)
        let old = try await Self.send(provider, updateToken, Self.update(Self.now + 20, "old"))
        #expect(old.status == 410 && old.reason == "Unregistered")
        #expect(
            try await Self.outcome(emulator, try await Self.send(provider, newToken, Self.update(Self.now + 30, "new")))[
                "outcome"] as? String == "applied")
        try await emulator.stop()
    }

    @Test("a push accepted (200) but not yet applied when the emulator stopped is applied at the next start")
    func resumeAfterStop() async throws {
        let directory = try TemporaryDirectory()
        var emulator = try await RunningEmulator.start(directory: directory)
        let (token, pushToStart) = try await Self.app(emulator)
        try await emulator.stop()

        // What a crash between the two commits leaves: the push is in its token's queue, unapplied.
        var configuration = EmulatorConfiguration()
        configuration.dataDirectory = directory.appending("data")
        let store = try NotificationStore(configuration: configuration.storeConfiguration, logger: Logger(label: "test"))
        let push = APNsCore.Notification(
            apnsID: APNsID.random(), uniqueID: APNsID.random(), token: try #require(DeviceToken(hex: pushToStart)),
            topic: Self.topic,
            pushType: .liveactivity, priority: .immediate, expiration: nil, collapseID: nil, payload: Array(Self.start().utf8),
            receivedAt: Int64(Date().timeIntervalSince1970 * 1000), source: .http2)
        _ = try await store.submit([.accept(push)])
        store.close()

        emulator = try await RunningEmulator.start(directory: directory)
        let activity = try #require(try await Self.activities(emulator, token).first)
        #expect(activity["activityState"] as? String == "active" && activity["startedBy"] as? String == "push-to-start")
        let entry = try await emulator.adminObject("/api/v1/notifications/\(push.uniqueID)")
        #expect((entry["activity"] as? [String: Any])?["outcome"] as? String == "started")
        #expect(
            await eventually {
                (try? await emulator.adminObject("/api/v1/notifications/\(push.uniqueID)"))?["status"] as? String == "delivered"
            })
        try await emulator.stop()
    }
}

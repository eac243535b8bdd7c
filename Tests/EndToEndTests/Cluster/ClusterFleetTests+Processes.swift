import APNsCore
import APNsDeviceClient
import APNsTestSupport
import Foundation
import Synchronization
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The cluster test's processes: shards started from the built binary on ports below the
/// ephemeral range, their admin APIs, and a thousand devices connected through HAProxy.
extension ClusterFleetTests {
    /// One shard process and the ports it listens on.
    final class ShardProcess: Sendable {
        let index: Int
        let http2: Int, admin: Int, device: Int
        /// The running process; a new one after a restart.
        let running = Mutex<BackgroundProcess?>(nil)
        var process: BackgroundProcess? { self.running.withLock { $0 } }
        init(index: Int) throws {
            self.index = index
            (self.http2, self.admin, self.device) = (try LoopbackPorts.free(), try LoopbackPorts.free(), try LoopbackPorts.free())
        }
    }

    static func start(_ shard: ShardProcess, of shards: [ShardProcess], in shared: TemporaryDirectory) async throws {
        let peers = shards.map { "127.0.0.1:\($0.admin)" }.joined(separator: ",")
        let process = try BackgroundProcess(
            Subprocess.emulatorExecutable,
            [
                "serve", "--shard", "\(shard.index)/\(shards.count)", "--cluster-peers", peers, "--host", "127.0.0.1",
                "--http2-port", String(shard.http2), "--admin-port", String(shard.admin), "--device-port", String(shard.device),
                "--gateway-port", "0", "--feedback-port", "0", "--channels-port", "0", "--web-push-port", "0",
                "--production-http2-port", "0", "--certs-dir", shared.appending("certs"),
                "--data-dir", shared.appending("data\(shard.index)"), "--keys", shared.appending("keys"), "--threads", "2",
                "--quiet",
            ], output: shared.appending("shard\(shard.index).log"))
        shard.running.withLock { $0 = process }
        let ready = await eventually(timeout: .seconds(60)) {
            (try? await AdminTestClient.request(host: "127.0.0.1", port: shard.admin, path: "/readyz"))?.status == 200
        }
        try #require(ready, "shard \(shard.index) did not start: \(shard.process?.lines ?? [])")
    }

    static func admin(
        _ shard: ShardProcess, _ path: String, method: String = "GET", body: String? = nil
    ) async throws -> (status: Int, json: [String: Any]) {
        let answer = try await AdminTestClient.request(
            host: "127.0.0.1", port: shard.admin, method: method, path: path, body: body)
        return (answer.status, (try? answer.json() as? [String: Any]) ?? ["text": answer.text])
    }

    /// Connects `count` devices through HAProxy's device front (any shard), each registering `topic`.
    static func connectFleet(_ count: Int, port: Int, ca: String) async throws -> [(device: DeviceClient, token: DeviceToken)] {
        try await withThrowingTaskGroup(of: [(DeviceClient, DeviceToken)].self) { group in
            for batch in stride(from: 0, to: count, by: 50) {
                group.addTask {
                    var connected: [(DeviceClient, DeviceToken)] = []
                    for n in batch..<min(batch + 50, count) {
                        let device = try await DeviceClient.connect(
                            host: "127.0.0.1", port: port, caPath: ca, deviceID: "fleet-\(n)", serverName: "devices.localhost")
                        connected.append((device, try await device.register(topic: Self.topic)))
                    }
                    return connected
                }
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
    }
}

import APNsCore
import APNsTestSupport
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `apns-emulator cluster run`: N shards and HAProxy from one command, stopped together.
@Suite("apns-emulator cluster run")
struct ClusterRunTests {
    @Test(
        "two shards and HAProxy from one command: pushes through HAProxy reach both, shard 0's admin API lists both; SIGTERM stops them all. Beyond loopback, the shards share one made admin token and ask each other with it"
    )
    func run() async throws {
        try #require(HAProxy.path != nil, "haproxy is not installed (.ci/run installs it)")
        let directory = try TemporaryDirectory()
        let base = try LoopbackPorts.free(8)
        let (front, devices, http2, admin, device) = (base, base + 1, base + 2, base + 4, base + 6)
        let productionFront = try LoopbackPorts.free()
        let cluster = try BackgroundProcess(
            Subprocess.emulatorExecutable,
            [
                "cluster", "run", "--shards", "2", "--dir", directory.appending("cluster"), "--listen", "127.0.0.1:\(front)",
                "--production-listen", "127.0.0.1:\(productionFront)", "--device-listen", "127.0.0.1:\(devices)", "--http2-base",
                String(http2), "--admin-base", String(admin),
                "--device-base", String(device),
                "--", "--durability", "relaxed", "--host", "0.0.0.0",
            ], output: directory.appending("run.log"))
        let ready = await eventually(timeout: .seconds(60)) { cluster.lines.contains { $0.hasPrefix("cluster of 2 shards") } }
        // A shard that ended while starting says why in its log, which the directory's removal
        // would take with it: its last lines are in the failure.
        let logs = (0..<2).map { shard in
            let log = (try? String(contentsOfFile: directory.appending("cluster/shard\(shard).log"), encoding: .utf8)) ?? ""
            return "shard\(shard).log: " + log.split(separator: "\n").suffix(8).joined(separator: "\n")
        }
        try #require(ready, "\(cluster.lines)\n\(ready ? "" : logs.joined(separator: "\n"))")
        let ca = directory.appending("cluster/certs/ca.pem")
        var client: HTTP2TestClient?
        _ = await eventually {
            client = try? await HTTP2TestClient.connect(host: "127.0.0.1", port: front, caPath: ca)
            return client != nil
        }
        let provider = try #require(client, "HAProxy did not listen")
        for shard in 0..<2 {
            let token = try #require(Shard(index: shard, count: 2)).randomToken().hex
            #expect(try await provider.push(token: token, topic: "com.example.app").status == 200)
        }
        try await provider.close()
        // One token for the cluster, printed once by cluster run; each shard asks for it.
        let line = try #require(cluster.lines.first { $0.hasPrefix("cluster admin token: ") })
        let adminToken = try #require(line.split(separator: " ").dropFirst(3).first.map(String.init))
        #expect(
            try await AdminTestClient.request(host: "127.0.0.1", port: admin + 1, path: "/api/v1/notifications").status == 401)
        let listed = try await AdminTestClient.request(
            host: "127.0.0.1", port: admin, path: "/api/v1/notifications", token: adminToken)
        let page = try #require(try listed.json() as? [String: Any])
        #expect(page["total"] as? Int == 2 && (page["shards"] as? [String: Any])?["answered"] as? [Int] == [0, 1], "\(page)")

        Foundation.kill(cluster.pid, SIGTERM)
        #expect(await cluster.wait() == 0)
        let gone = await eventually {
            (try? await AdminTestClient.request(host: "127.0.0.1", port: admin + 1, path: "/healthz")) == nil
        }
        #expect(gone, "the shards stopped with it")
        try directory.remove()
    }
}
